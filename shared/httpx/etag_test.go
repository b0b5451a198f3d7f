package httpx

import (
	"testing"
)

func TestETagMatching(t *testing.T) {
	for h, want := range map[string]bool{`"a"`: true, `W/"a"`: true, `"b", "a"`: true, `*`: true, `"b"`: false, ``: false} {
		if etagMatches(h, `"a"`) != want {
			t.Errorf("If-None-Match %q", h)
		}
	}
}
