"""Account reads, one module per sub-domain; second factors in `mfa`."""
