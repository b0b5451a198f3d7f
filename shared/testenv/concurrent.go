package testenv

import (
	"net/http"
	"slices"
	"sync"
	"testing"
)

// Concurrently calls fn(0) .. fn(n-1) at once, each in its own goroutine,
// and returns their answers by index once all have come back: the shape of
// every race test (numbers that must stay gapless, stock that must not be
// sold twice, duplicates of which exactly one may be created).
func Concurrently(n int, fn func(i int) Resp) []Resp {
	out := make([]Resp, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = fn(i)
		}()
	}
	wg.Wait()
	return out
}

// Gapless fails t unless every answer is a 201 and the numbers at path
// (e.g. "data.numero_orden"), sorted, are exactly want(1) .. want(len(rs)):
// concurrent creations took consecutive numbers, none twice, none skipped.
func Gapless(t testing.TB, rs []Resp, path string, want func(n int) string) {
	t.Helper()
	nums := make([]string, 0, len(rs))
	for i, r := range rs {
		if r.Status != http.StatusCreated {
			t.Fatalf("concurrent creation %d: %d %s", i, r.Status, r.Raw)
		}
		nums = append(nums, Str(r.JSON, path))
	}
	slices.Sort(nums)
	for i, n := range nums {
		if w := want(i + 1); n != w {
			t.Fatalf("numbers %v: position %d is %s, want %s", nums, i, n, w)
		}
	}
}

// OneWins fails t unless exactly one answer is want and every other is a
// 422 with an error under field: a race in which one caller may win (an
// action done twice at once) and the others are refused cleanly.
func OneWins(t testing.TB, rs []Resp, want int, field string) {
	t.Helper()
	won := 0
	for i, r := range rs {
		switch {
		case r.Status == want:
			won++
		case r.Status != http.StatusUnprocessableEntity || len(r.FieldErrors(field)) == 0:
			t.Errorf("concurrent call %d: %d %s", i, r.Status, r.Raw)
		}
	}
	if won != 1 {
		t.Errorf("%d of %d concurrent calls won, want 1", won, len(rs))
	}
}
