# The two commands: `make run` and `make test`. Everything they need is installed on demand.
SHELL := /bin/bash
.DEFAULT_GOAL := help

VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
MANAGE := cd backend && ../$(PY) manage.py
# `make run` and `make dev` serve on localhost: browsers refuse passkeys on an IP address.
HOST ?= localhost
PORT ?= 8000
VAR := var
PYTHON ?= python3
export PRODUCT_NAME ?= Concierge

.PHONY: help lock run dev test lint fmt typecheck test-backend test-frontend test-e2e screenshots build openapi openapi-check install chromium nginx xmlsec1 wrk migrate demo bench budget lighthouse clean

help:
	@echo "make run    install, migrate, load demo data, build the web app and serve on http://$(HOST):$(PORT)"
	@echo "make test   lint, type checks, backend tests, component tests, build and browser tests"
	@echo "make dev    backend on :8000 and Vite dev server on :5173 with hot reload"
	@echo "make screenshots  the browser tests with their screenshots at both sizes (var/screenshots)"
	@echo "make lint | fmt | openapi | bench | lighthouse | clean"

# Python packages exactly as pinned (with hashes) in backend/requirements.lock; see `make lock`.
$(VENV)/.installed: backend/pyproject.toml backend/requirements.lock
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet --require-hashes -r backend/requirements.lock
	$(PIP) install --quiet --no-deps -e ./backend
	touch $@

# Re-pins backend/requirements.lock from pyproject.toml (newest releases its ranges allow).
# One package only: make lock LOCK_ARGS='--upgrade-package django'.
lock:
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet pip-tools
	cd backend && ../$(VENV)/bin/pip-compile --quiet --generate-hashes --extra dev --strip-extras \
	  --allow-unsafe --no-emit-find-links --no-emit-index-url $(LOCK_ARGS) -o requirements.lock pyproject.toml

frontend/node_modules/.installed: frontend/package.json
	cd frontend && npm install --no-audit --no-fund
	touch $@

install: $(VENV)/.installed frontend/node_modules/.installed

# Debian's Chromium headless shell drives the browser tests, and the full Chromium the one that
# opens a PDF in the browser's viewer, and Lighthouse (needs root for apt-get; see README).
chromium:
	@{ command -v chromium && command -v chromium-headless-shell; } >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-headless-shell; }

# Debian's xmlsec1 checks the signatures of company sign-in's SAML assertions (pysaml2 runs it).
xmlsec1:
	@command -v xmlsec1 >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq xmlsec1; }

# Debian's nginx routes the browser tests' requests as the production load balancer does.
nginx:
	@command -v nginx >/dev/null || test -x /usr/sbin/nginx || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx; }

# Debian's wrk measures capacity in `make bench`.
wrk:
	@command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; }

# The demo accounts' password: DEMO_PASSWORD when set, else one generated once into
# var/demo_password and kept. The file is never written while DEMO_PASSWORD is set, so a later
# `make demo` without it cannot quietly change the accounts' password.
$(VAR)/demo_password:
	@mkdir -p $(VAR)
	@$(PYTHON) -c "import secrets; print('Demo-' + secrets.token_urlsafe(9))" > $@
# The file as a prerequisite (none while DEMO_PASSWORD is set), and the password in a recipe.
DEMO_PASSWORD_FILE = $(if $(DEMO_PASSWORD),,$(VAR)/demo_password)
DEMO_PASSWORD_SH = $${DEMO_PASSWORD:-$$(cat $(CURDIR)/$(VAR)/demo_password)}

openapi: $(VENV)/.installed frontend/node_modules/.installed
	$(MANAGE) openapi --settings=config.settings_test -o openapi.json
	$(MANAGE) upload_policy --settings=config.settings_test -o ../frontend/src/api/upload-policy.ts
	cd frontend && npx openapi-typescript ../backend/openapi.json -o src/api/schema.d.ts

# The generated API types and upload allowlist must match the backend.
openapi-check: $(VENV)/.installed frontend/node_modules/.installed
	@tmp=$$(mktemp -d) && \
	  (cd backend && ../$(PY) manage.py openapi --settings=config.settings_test -o $$tmp/openapi.json) && \
	  (cd backend && ../$(PY) manage.py upload_policy --settings=config.settings_test -o $$tmp/upload-policy.ts) && \
	  (cd frontend && npx openapi-typescript $$tmp/openapi.json -o $$tmp/schema.d.ts >/dev/null) && \
	  diff -q backend/openapi.json $$tmp/openapi.json >/dev/null && \
	  diff -q frontend/src/api/schema.d.ts $$tmp/schema.d.ts >/dev/null && \
	  diff -q frontend/src/api/upload-policy.ts $$tmp/upload-policy.ts >/dev/null || \
	  { echo "The API types are stale: run 'make openapi' and commit the result."; exit 1; }

# The web app, with brotli and gzip variants of each file for whitenoise to serve.
build: $(VENV)/.installed frontend/node_modules/.installed
	cd frontend && env -u DEBUG VITE_PRODUCT_NAME="$(PRODUCT_NAME)" npx vite build --logLevel warn
	$(PY) -m whitenoise.compress --quiet frontend/dist

# First-load JavaScript and chunk sizes of the last build against their budgets (gzip bytes).
budget: build
	cd frontend && node scripts/check-budget.mjs

# The development database (DEBUG on, as `make run`); a production one: `deploy/manage migrate`.
migrate: export DEBUG ?= true
migrate: $(VENV)/.installed
	$(MANAGE) migrate --noinput

# The demo data, its requests included; ends with the one list of demo accounts and their password.
demo: export DEBUG ?= true
demo: migrate $(DEMO_PASSWORD_FILE)
	@cd backend && DEMO_PASSWORD="$(DEMO_PASSWORD_SH)" ../$(PY) manage.py seed_demo --requests --show-password

run: export DEBUG ?= true
run: install build demo
	@echo
	@echo "  $(PRODUCT_NAME) is running at http://$(HOST):$(PORT): sign in with a demo account above."
	@echo "  Emails and text messages: http://$(HOST):$(PORT)/dev/outbox"
	@echo
	@# One process serves everything (README: Production has the production layout); Django's
	@# ASGI application has no lifespan events. Links in emails, and passkeys, are bound to the
	@# address served here unless PUBLIC_URL says otherwise.
	@cd backend && PUBLIC_URL="$${PUBLIC_URL:-http://$(HOST):$(PORT)}" ../$(VENV)/bin/uvicorn config.asgi:application --host $(HOST) --port $(PORT) --lifespan off --no-access-log --no-proxy-headers --timeout-graceful-shutdown 3

dev: export DEBUG ?= true
dev: install demo
	@# Links in emails, and passkeys, are bound to the Vite server's address, where the app is used.
	cd frontend && env -u DEBUG npx vite & cd backend && PUBLIC_URL="$${PUBLIC_URL:-http://localhost:5173}" ../$(VENV)/bin/uvicorn config.asgi:application --reload --host $(HOST) --port $(PORT) --lifespan off --timeout-graceful-shutdown 3

lint: $(VENV)/.installed frontend/node_modules/.installed
	cd backend && ../$(VENV)/bin/ruff check . && ../$(VENV)/bin/ruff format --check .
	cd backend && ../$(VENV)/bin/mypy concierge config bench
	cd backend && ../$(VENV)/bin/lint-imports
	cd frontend && npx biome check src

fmt: $(VENV)/.installed
	cd backend && ../$(VENV)/bin/ruff check --fix . && ../$(VENV)/bin/ruff format .

typecheck: frontend/node_modules/.installed
	cd frontend && npx tsc --noEmit -p tsconfig.json

# Both suites run on TEST_WORKERS processes (pytest-xdist; each has its own test database, and
# each browser-test worker its own servers); TEST_WORKERS=0 runs them in this one.
TEST_WORKERS ?= 2

test-backend: $(VENV)/.installed xmlsec1
	cd backend && ../$(VENV)/bin/pytest -q -n $(TEST_WORKERS) concierge

test-frontend: frontend/node_modules/.installed
	cd frontend && npx vitest run

# Against the production layout (granian + uvicorn + nginx, Redis at REDIS_URL): see e2e/conftest.py.
test-e2e: $(VENV)/.installed chromium nginx xmlsec1 build
	cd backend && DJANGO_ALLOW_ASYNC_UNSAFE=true ../$(VENV)/bin/pytest -q -n $(TEST_WORKERS) --dist loadfile e2e

# The browser tests, those that only take screenshots at phone size too (see e2e/conftest.py).
screenshots: $(VENV)/.installed chromium nginx xmlsec1 build
	cd backend && E2E_PHONE_SCREENSHOTS=1 DJANGO_ALLOW_ASYNC_UNSAFE=true ../$(VENV)/bin/pytest -q -n $(TEST_WORKERS) --dist loadfile e2e

test: install lint openapi-check typecheck test-backend test-frontend budget test-e2e
	@echo "All checks passed."

bench: $(VENV)/.installed wrk
	cd backend && ../$(PY) -m bench $(BENCH_ARGS)

# Lighthouse (mobile) on /sign-in, /dashboard, /benefits-and-offers and /requests against a
# production-profile server (DEBUG off, demo data) of its own on LIGHTHOUSE_PORT.
LIGHTHOUSE_PORT ?= 8001
LIGHTHOUSE_VAR := $(CURDIR)/$(VAR)/lighthouse
LIGHTHOUSE_ENV = DEBUG=false SECRET_KEY=lighthouse-profile-only ALLOWED_HOSTS=127.0.0.1 \
  SECURE_SSL_REDIRECT=false VAR_DIR=$(LIGHTHOUSE_VAR) PUBLIC_URL=http://127.0.0.1:$(LIGHTHOUSE_PORT) \
  DATABASE_URL=sqlite:///$(LIGHTHOUSE_VAR)/concierge.sqlite3 DEMO_PASSWORD="$(DEMO_PASSWORD_SH)"

lighthouse: install chromium build $(DEMO_PASSWORD_FILE)
	@mkdir -p $(LIGHTHOUSE_VAR)
	cd backend && env $(LIGHTHOUSE_ENV) ../$(PY) manage.py migrate --noinput -v 0
	cd backend && env $(LIGHTHOUSE_ENV) ../$(PY) manage.py seed_demo > /dev/null
	@cd backend && { env $(LIGHTHOUSE_ENV) ../$(VENV)/bin/uvicorn config.asgi:application \
	    --host 127.0.0.1 --port $(LIGHTHOUSE_PORT) --no-access-log --log-level warning & } ; \
	  server=$$!; trap 'kill $$server' EXIT; \
	  for _ in $$(seq 100); do curl -sf -o /dev/null http://127.0.0.1:$(LIGHTHOUSE_PORT)/sign-in && break; sleep 0.2; done; \
	  cd ../frontend && BASE_URL=http://127.0.0.1:$(LIGHTHOUSE_PORT) LIGHTHOUSE_OUT=$(LIGHTHOUSE_VAR)/reports \
	    LIGHTHOUSE_PASSWORD="$(DEMO_PASSWORD_SH)" node scripts/lighthouse.mjs

clean:
	rm -rf frontend/dist frontend/dist-meta $(VAR)/static
