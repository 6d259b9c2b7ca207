package proto

// Tokens are the tokens a pane's model requests used, by kind (input without cached
// input; output; input read from and written to the provider's cache).
type Tokens struct {
	Input      int64 `json:"input"`
	Output     int64 `json:"output"`
	CacheRead  int64 `json:"cache_read"`
	CacheWrite int64 `json:"cache_write"`
}

// Total is the sum of the four kinds.
func (t Tokens) Total() int64 { return t.Input + t.Output + t.CacheRead + t.CacheWrite }

// Spend is what a "spend" event reports: Requests model requests to Model spent
// Tokens, costing CostUSD (nil: the model has no price); counted to Link ("": the
// pane only, a turn the person started).
type Spend struct {
	Model    string   `json:"model,omitempty"`
	Requests int      `json:"requests"`
	Link     string   `json:"link,omitempty"`
	Tokens   Tokens   `json:"tokens"`
	CostUSD  *float64 `json:"cost_usd"`
}
