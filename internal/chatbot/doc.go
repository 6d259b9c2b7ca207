// Package chatbot is a family of scripted chat programs for testing the relay under the
// generic profile: the same bot drawn as a line-mode REPL, as a Claude-Code-like inline
// UI, or as a full-screen alternate-screen UI (Style), answering every message with a
// reply drawn from a seeded corpus of the cases that trip a relay (Gen). A Bot is a state
// machine, so tests drive it on a fake clock through vterm and the relay; Run drives it
// in a real terminal for the end-to-end tests (testdata/chatbot is the program).
//
// It imports nothing of the project.
package chatbot
