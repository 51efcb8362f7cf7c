package invoice

import "testing"

func TestTotal(t *testing.T) {
	if got, _ := Total([]Line{{Cents: 2}, {Cents: 3}}); got != 5 {
		t.Fatalf("got %d", got)
	}
}
