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

// Elementos reads each element of the list key (items, from List) as an
// object with leer, whose errors are merged back under "key.i."; an
// element that is not an object gets msg under "key.i" and is left out.
func Elementos[T any](in *Input, key string, items []json.RawMessage, msg string, leer func(el *Input, i int) T) []T {
	out := make([]T, 0, len(items))
	for i, raw := range items {
		el, ok := in.Elemento(key, i, raw, msg)
		if !ok {
			continue
		}
		out = append(out, leer(el, i))
		in.Merge(key+"."+strconv.Itoa(i)+".", el)
	}
	return out
}
