"""Account writes, one module per sub-domain; second factors in `mfa`."""
