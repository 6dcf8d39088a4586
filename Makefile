# Two commands: `make book` builds the HTML, `make test` runs every check.
# Both create the virtual environment .venv from requirements.txt on first use.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
NOTEBOOKS := $(wildcard chapters/*.ipynb)
PLOTLY_JS := _static/plotly.min.js
export PYTHONHASHSEED := 0
# OpenBLAS picks its kernels from the CPU; AVX-512 and AVX2 kernels round
# differently, and the models of chapters 7 and 8 (MLP, SMOTE) feel it.  Pin
# the AVX2 kernels so the stored outputs reproduce on any x86-64 machine with
# AVX2 (on other CPUs, set OPENBLAS_CORETYPE to one it has and expect nbval
# to report those chapters' numbers).
export OPENBLAS_CORETYPE ?= Haswell

.PHONY: book test test-lib test-notebooks check-html notebooks student bench clean help

help:
	@echo "make book        build the HTML book into _build/html"
	@echo "make test        unit tests + doctests, strict nbval over every chapter, book build (-W), HTML check"
	@echo "make notebooks   re-execute the chapter notebooks in place (refresh stored outputs)"
	@echo "make check-html  open the built pages in headless Chromium and check math and plots"
	@echo "make student     write the student edition (no solutions, no outputs) to student/"
	@echo "make bench       run the speed benchmark against scikit-learn"

$(STAMP): requirements.txt pyproject.toml bookkit/pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e . -e bookkit
	touch $(STAMP)

$(PLOTLY_JS): $(STAMP)
	mkdir -p _static
	cp "$$($(BIN)/python -c 'import plotly, os; print(os.path.join(os.path.dirname(plotly.__file__), "package_data", "plotly.min.js"))')" $@

book: $(STAMP) $(PLOTLY_JS)
	$(BIN)/python tools/build_book.py

test: test-lib test-notebooks book check-html

test-lib: $(STAMP)
	$(BIN)/python -m pytest -q -p no:cacheprovider tests auklib bookkit/aukbook

test-notebooks: $(STAMP)
	$(BIN)/python -m pytest -q -p no:cacheprovider --nbval --nbval-sanitize-with tests/nbval_sanitize.cfg \
		--nbval-current-env -o testpaths= $(NOTEBOOKS)

check-html: $(STAMP)
	$(BIN)/python tools/check_html.py _build/html

notebooks: $(STAMP)
	$(BIN)/python tools/run_notebooks.py $(NOTEBOOKS)

student: $(STAMP)
	$(BIN)/python tools/make_student.py student

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_auk.py
	$(BIN)/python benchmarks/bench_uncertainty.py

clean:
	rm -rf _build student $(PLOTLY_JS)
