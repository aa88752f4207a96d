"""Reply by email: an employee answers a notification email and the answer lands in the request's thread."""
