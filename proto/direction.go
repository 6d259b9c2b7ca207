package proto

// ClientTypes are the frame types a client sends the session socket: the session
// answers each (hub's handler table has one a type). PING, PONG, ACK and BYE go both
// ways.
var ClientTypes = []string{
	TypeHello, TypeResume, TypeSend, TypeAck, TypeNack, TypePing, TypePong, TypeBye,
	TypeSubscribe, TypeUnsubscribe,
	TypeList, TypeCapture, TypeHistory, TypeRead, TypeLink, TypeUnlink, TypeHold,
	TypeRelease, TypeEvents, TypeHook, TypeNew, TypeRespawn, TypeRename, TypeType,
	TypeResize, TypeDiff, TypeWeb, TypeMesh, TypeAnswer,
}

// ServerTypes are the frame types only the session sends.
var ServerTypes = []string{
	TypeWelcome, TypeDeliver, TypeError, TypeBusy, TypeSync, TypeResult, TypeEvent,
}
