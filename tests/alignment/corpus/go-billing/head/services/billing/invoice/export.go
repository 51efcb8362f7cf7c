package invoice

import (
	"context"
	"os/exec"
)

// Export dumps the invoices table, compressed.
func Export(ctx context.Context) ([]byte, error) {
	cmd := exec.CommandContext(ctx,
		"sh", "-c",
		"pg_dump --table=invoices | gzip",
	)
	return cmd.Output()
}

// Legacy is the old exporter, kept until the reports move (it predates the no-shell rule).
func Legacy(ctx context.Context, table string) ([]byte, error) {
	return exec.CommandContext(ctx,
		"sh", "-c",
		"pg_dump --no-owner --table="+table,
	).Output()
}
