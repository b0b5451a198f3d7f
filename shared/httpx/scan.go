package httpx

import (
	"strconv"
	"unsafe"
)

// Scanner is a position in JSON text for the hand-written readers of the
// request path (issue 17: no encoding/json reflection there): this
// package's row decoder and canonical rewriter, and lambdahttp's event and
// response readers. It walks the structure — white space, an object's
// members, an array's elements and the separators between them — once for
// all of them; what is done with a key or a value is the reader's.
type Scanner struct {
	B []byte // the text
	I int    // the next byte to read
}

// SyntaxError is text a Scanner cannot read: what was expected at Offset
// (len of the text when it ended too soon).
type SyntaxError struct {
	Offset int
	What   string
	End    bool // the text ended
}

func (e *SyntaxError) Error() string {
	if e.End {
		return "unexpected end of JSON"
	}
	return "invalid JSON at byte " + strconv.Itoa(e.Offset) + ": " + e.What
}

// Fail is a SyntaxError at the current byte.
func (s *Scanner) Fail(what string) error {
	return &SyntaxError{Offset: s.I, What: what, End: s.I >= len(s.B)}
}

// Space skips white space.
func (s *Scanner) Space() {
	for s.I < len(s.B) {
		switch s.B[s.I] {
		case ' ', '\t', '\n', '\r':
			s.I++
		default:
			return
		}
	}
}

// Next reads what follows a member or an element: ',' (another follows)
// or the closing byte (done).
func (s *Scanner) Next(closing byte) (done bool, err error) {
	s.Space()
	if s.I >= len(s.B) {
		return false, s.Fail("")
	}
	switch s.B[s.I] {
	case ',':
		s.I++
		return false, nil
	case closing:
		s.I++
		return true, nil
	}
	return false, s.Fail("',' or '" + string(closing) + "' expected")
}

// Object reads the object at s.I (on its '{' or white space before it):
// for each member, key reads its key (s on the key's quote) and value its
// value (s on the value's first byte; value must consume it).
func (s *Scanner) Object(key func() (string, error), value func(key string) error) error {
	if more, err := s.enter('{', '}', "object expected"); !more || err != nil {
		return err
	}
	for {
		s.Space()
		if s.I >= len(s.B) || s.B[s.I] != '"' {
			return s.Fail("string expected")
		}
		k, err := key()
		if err != nil {
			return err
		}
		s.Space()
		if s.I >= len(s.B) || s.B[s.I] != ':' {
			return s.Fail("':' expected")
		}
		s.I++
		s.Space()
		if err := value(k); err != nil {
			return err
		}
		if done, err := s.Next('}'); done || err != nil {
			return err
		}
	}
}

// Array reads the array at s.I (on its '[' or white space before it),
// calling elem with s on each element's first byte (elem must consume it).
func (s *Scanner) Array(elem func() error) error {
	if more, err := s.enter('[', ']', "array expected"); !more || err != nil {
		return err
	}
	for {
		s.Space()
		if err := elem(); err != nil {
			return err
		}
		if done, err := s.Next(']'); done || err != nil {
			return err
		}
	}
}

// enter reads an object's or array's opening byte; more is false when it
// is empty (its closing byte read too).
func (s *Scanner) enter(opening, closing byte, expected string) (more bool, err error) {
	s.Space()
	if s.I >= len(s.B) || s.B[s.I] != opening {
		return false, s.Fail(expected)
	}
	s.I++
	s.Space()
	if s.I < len(s.B) && s.B[s.I] == closing {
		s.I++
		return false, nil
	}
	return true, nil
}

// number reads the number at s.I, checked against encoding/json's grammar
// (the bytes view the text).
func (s *Scanner) number() ([]byte, error) {
	start := s.I
	for s.I < len(s.B) {
		c := s.B[s.I]
		if (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' {
			s.I++
			continue
		}
		break
	}
	n := s.B[start:s.I]
	if !validNumber(unsafe.String(unsafe.SliceData(n), len(n))) {
		return nil, errRapido
	}
	return n, nil
}

// Literal reads lit (true, false or null) if it is next.
func (s *Scanner) Literal(lit string) bool {
	if len(s.B)-s.I < len(lit) || string(s.B[s.I:s.I+len(lit)]) != lit {
		return false
	}
	s.I += len(lit)
	return true
}
