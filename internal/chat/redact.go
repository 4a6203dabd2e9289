package chat

// RedactedError is an error whose text has secrets taken out (a webhook's
// key, a session's URL query); errors.Is and errors.As still see the
// original.
type RedactedError struct {
	Err  error
	Text string
}

func (e *RedactedError) Error() string { return e.Text }
func (e *RedactedError) Unwrap() error { return e.Err }

// Redact wraps err so that its text passes through clean, for logs and
// returned errors; nil stays nil.
func Redact(err error, clean func(string) string) error {
	if err == nil {
		return nil
	}
	return &RedactedError{Err: err, Text: clean(err.Error())}
}
