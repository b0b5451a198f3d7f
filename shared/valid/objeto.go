package valid

import (
	"encoding/json"
	"strconv"
)

// Elemento reads element i of the list key (raw, from List) as an object of
// its own, whose fields are then read and merged back under "key.i.". When
// it is not an object, msg is recorded under "key.i" and ok is false.
func (in *Input) Elemento(key string, i int, raw json.RawMessage, msg string) (el *Input, ok bool) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		in.Fail(key+"."+strconv.Itoa(i), msg)
		return nil, false
	}
	return NewInput(obj), true
}
