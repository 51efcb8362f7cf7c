package invoice

import (
	"errors"
	"log/slog"
)

// Total sums the lines of an invoice.
func Total(lines []Line) (int64, error) {
	var sum int64
	for _, l := range lines {
		if l.Cents < 0 {
			return 0, errors.New("negative line")
		}
		sum += l.Cents
	}
	slog.Debug("invoice total", "cents", sum)
	return sum, nil
}
