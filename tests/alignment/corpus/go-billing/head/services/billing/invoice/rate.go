package invoice

import "strconv"

func parseRate(out []byte, source string) (int64, error) {
	_ = source
	return strconv.ParseInt(string(out), 10, 64)
}
