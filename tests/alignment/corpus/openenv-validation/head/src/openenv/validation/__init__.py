"""Environment validation (RFC 8)."""
