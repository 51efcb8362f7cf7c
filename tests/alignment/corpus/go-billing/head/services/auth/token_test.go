package auth

import "testing"

func TestSign(t *testing.T) {
	if Sign(nil) == "" {
		t.Fatal("empty")
	}
	if Sign(map[string]string{"sub": "x"}) == "" {
		t.Fatal("empty with claims")
	}
}
