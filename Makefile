# Two commands do everything on a fresh machine:
#   make lab    create .venv (if missing), install the course from the lock, open JupyterLab
#   make test   same set-up, then the whole test suite (library, notebooks, exercises)
# Both are idempotent: a second run re-installs only when pyproject.toml or the lock changed.

VENV    ?= .venv
comma   := ,
PY      := $(VENV)/bin/python
STAMP   := $(VENV)/.installed
LOCK    := constraints.txt
UV      := $(shell command -v uv 2>/dev/null)
# uv is bootstrapped into the venv with pip when it is not on PATH: from an empty cache that install took
# 71 s against 543 s for pip alone (benchmarks/README.md, "Set-up"); pip stays the fallback.
UV_VERSION ?= 0.13.8
PYTHON  ?= python3
JOBS    ?= 2
PORT    ?= 8888
LAB_ARGS ?=

.PHONY: setup lab test test-lib test-notebooks browser lock exercises clean-notebooks bench clean help

help:
	@echo "make lab    - set up (first time) and open the course in JupyterLab"
	@echo "make test   - set up (first time) and run every test"
	@echo "make browser - add Chromium (Debian, as root) and Playwright for the real-browser test"
	@echo "make lock   - refresh $(LOCK) from pyproject.toml (maintainers)"

$(PY):
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else "Python 3.10 or newer is needed (found %s); set PYTHON=/path/to/python3.1x" % sys.version.split()[0])'
ifdef UV
	uv venv --python $(PYTHON) $(VENV)
else
	$(PYTHON) -m venv $(VENV)
endif

# install EXTRAS: uv on PATH, else uv bootstrapped into the venv (one wheel from PyPI), else plain pip.
# --compile-bytecode: uv, unlike pip, writes no .pyc by default, and where PYTHONDONTWRITEBYTECODE is set
# (containers, shared machines) Python never writes them either, so every kernel and stdio server would
# compile the SDKs' sources at each start (lesson 12's code cells: 6.1 -> 4.6 s CPU; ~13 s CPU once here).
define install
	@if [ -n "$(UV)" ] && uv pip install --compile-bytecode --python $(PY) -c $(LOCK) -e '.[$(1)]'; then :; \
	elif { [ -x $(VENV)/bin/uv ] || $(PY) -m pip install --quiet "uv==$(UV_VERSION)"; } \
	  && $(VENV)/bin/uv pip install --compile-bytecode --python $(PY) -c $(LOCK) -e '.[$(1)]'; then :; \
	else echo "uv did not work here: installing with pip (slower)"; \
	  $(PY) -m ensurepip --upgrade >/dev/null 2>&1; $(PY) -m pip install --quiet --upgrade pip \
	  && $(PY) -m pip install --quiet -c $(LOCK) -e '.[$(1)]'; fi
endef

$(STAMP): $(PY) pyproject.toml $(LOCK)
	$(call install,test)
	@touch $(STAMP)

setup: $(STAMP)

# The repository is JupyterLab's root (lessons link to exercises/ and solutions/), lesson 00 opens first:
# LabApp.default_url makes both the browser JupyterLab opens and the URL it prints (for a machine with no
# browser) .../lab/tree/notebooks/00_welcome.ipynb?token=..., not the Launcher's /lab?token=...
# `make lab LAB_ARGS=--no-browser` passes more options to JupyterLab.
# .venv/bin goes first on PATH so `course check 01` works as typed in a JupyterLab terminal.
# JupyterLab refuses to start as root unless told; containers and some cloud machines run as root.
# COURSE_LANG=zh (or `make lab COURSE_LANG=zh`) opens the Chinese edition's lesson 00 (notebooks/zh/, docs/translation.md).
COURSE_LANG ?=
FIRST_LESSON := notebooks/$(if $(filter zh,$(COURSE_LANG)),zh/)00_welcome.ipynb
lab: setup
	PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $(VENV)/bin/jupyter lab --ServerApp.ip=127.0.0.1 --ServerApp.port=$(PORT) \
	  --ServerApp.root_dir="$(CURDIR)" $(if $(filter 0,$(shell id -u)),--ServerApp.allow_root=True) \
	  --LabApp.default_url=/lab/tree/$(FIRST_LESSON) $(LAB_ARGS)

# COURSE_LLM=mock: tests must not reach a real endpoint even if OPENAI_API_KEY is set.
test: setup
	COURSE_LLM=mock $(PY) -m pytest -n $(JOBS) --dist loadfile tests \
	  --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg notebooks solutions

# The real-browser tests' extras (tests/test_browser_*.py): Debian's chromium and the fonts that draw the
# course's Chinese text and emoji (fonts-noto-cjk, fonts-noto-color-emoji: without them ✅ ❌ 💡 and 上海 are
# empty boxes in the screenshots), installed with apt-get when run as root on Debian/Ubuntu, and Playwright
# from the lock, which drives that browser (it never downloads one of its own). Without them `make test`
# skips the browser tests and says why. matplotlib's font cache is rebuilt so figures find the new fonts.
BROWSER_DEBS := chromium fonts-noto-cjk fonts-noto-color-emoji
browser: setup
	@missing="$$(for p in $(BROWSER_DEBS); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done 2>/dev/null)"; \
	if [ -z "$$missing" ] && command -v chromium >/dev/null 2>&1; then :; \
	elif command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	else echo "Install $$missing (Debian/Ubuntu: sudo apt-get install $$missing) for the browser tests."; fi
	@# fonts installed after matplotlib built its font cache stay invisible to it: rebuild the cache then
	@if fc-list 2>/dev/null | grep -q "Noto Sans CJK" && ! $(PY) -c "from matplotlib import font_manager as f; \
	  raise SystemExit(not any('Noto Sans CJK' in x.name for x in f.fontManager.ttflist))" 2>/dev/null; then \
	  rm -f "$$($(PY) -c 'import matplotlib; print(matplotlib.get_cachedir())')"/fontlist-*.json; fi
	$(call install,test$(comma)browser)

test-lib: setup
	COURSE_LLM=mock $(PY) -m pytest -n $(JOBS) tests

lock:
	rm -rf _build/lockenv && $(PYTHON) -m venv _build/lockenv
	_build/lockenv/bin/pip install --quiet --upgrade pip
	_build/lockenv/bin/pip install --quiet -e '.[test,browser]'
	_build/lockenv/bin/pip freeze --exclude-editable | grep -v '^agent-tool-systems' > $(LOCK)
	rm -rf _build/lockenv
	@echo "$(LOCK) refreshed: review the diff, run make test, commit."

exercises: setup
	$(VENV)/bin/course exercises generate

clean-notebooks: setup
	$(VENV)/bin/course notebooks clean

bench: setup
	COURSE_LLM=mock $(PY) benchmarks/run_all.py

clean:
	rm -rf $(VENV) _build .pytest_cache
