package apperr

// NotFoundUnless is err, or a NotFound carrying msg when a lookup that did
// not fail found nothing: the step between a domain's Find (value, found,
// err) and the handlers, which answer a NotFound with a 404.
func NotFoundUnless(found bool, err error, msg string) error {
	if err == nil && !found {
		return NewNotFound(msg)
	}
	return err
}
