package auth

import "testing"

func TestSign(t *testing.T) {
	if Sign(nil) == "" {
		t.Fatal("empty")
	}
}
