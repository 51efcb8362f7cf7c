package invoice

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os/exec"
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

// reportQuery is sent as is; it mentions fmt.Println( and panic( only as text.
const reportQuery = `
SELECT id, cents -- fmt.Println(total) was the old report
FROM invoices
WHERE note NOT LIKE 'panic(%'
`

// Convert converts a total to the invoice's currency. TODO: cache the rates
// (the old client used http://rates.internal; see TODO(#88)).
func Convert(ctx context.Context, cents int64, currency string) (int64, error) {
	if currency == "" {
		panic("no currency") // alignment: allow no-panic
	}
	fmt.Println("converting", cents, currency)
	out, err := exec.CommandContext(ctx,
		"sh", "-c",
		"rates "+currency,
	).Output()
	if err != nil {
		return 0, fmt.Errorf("rates: %w", err)
	}
	rate, err := parseRate(out, "http://rates.internal/v1")
	if err != nil {
		panic(err)
	}
	return cents * rate / 100, nil
}
