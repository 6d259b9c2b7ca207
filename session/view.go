package session

import "slices"

// View is how the attached terminals lay the panes out, kept by the session (as each
// pane's Share is) so that a terminal attaching later and a restored session start
// from it: the layout's kind as --layout names it ("" for the default), the panes in
// the order the layout places them (prefix { and }), and the zoomed pane (0: none).
// The terminal that changed it last sets it for all.
type View struct {
	Layout string `json:"layout,omitempty"`
	Order  []int  `json:"order,omitempty"`
	Zoomed int    `json:"zoomed,omitempty"`
}

// ViewChanged says a terminal changed the session's View.
type ViewChanged struct{ View View }

func (ViewChanged) isEvent() {}

// SetView records v as the session's view; subscribers hear of a change.
func (s *Session) SetView(v View) {
	v.Order = slices.Clone(v.Order)
	s.post(func() {
		if v.Layout == s.view.Layout && v.Zoomed == s.view.Zoomed && slices.Equal(v.Order, s.view.Order) {
			return
		}
		s.view = v
		s.emit(ViewChanged{View: v})
	})
}

// View returns the session's view (Options.View until a terminal changes it).
func (s *Session) View() View {
	var v View
	s.call(func() { v = s.view })
	v.Order = slices.Clone(v.Order)
	return v
}
