# Two commands: `make book` builds the HTML, `make test` runs every check.
# Both create the virtual environment .venv from requirements.txt on first use.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
NOTEBOOKS := $(wildcard chapters/*.ipynb)
export PYTHONHASHSEED := 0
# OpenBLAS picks its kernels from the CPU; AVX-512 and AVX2 kernels round
# differently, and the models of chapters 7 and 8 (MLP, SMOTE) feel it.  Pin
# the AVX2 kernels so the stored outputs reproduce on any x86-64 machine with
# AVX2 (on other CPUs, set OPENBLAS_CORETYPE to one it has and expect nbval
# to report those chapters' numbers).
export OPENBLAS_CORETYPE ?= Haswell

.PHONY: book test test-lib test-notebooks check-html check-student notebooks student bench clean help

help:
	@echo "make book        build the HTML book into _build/html"
	@echo "make test        unit tests + doctests, strict nbval over every chapter, book build (-W), HTML check"
	@echo "make notebooks   re-execute the chapter notebooks in place (refresh stored outputs)"
	@echo "make check-html  open the built pages in headless Chromium, offline: console errors, weight, math, plots, search"
	@echo "make student     write the student edition: notebooks (no solutions, no outputs, plain Markdown)"
	@echo "                 to student/ and the student HTML book (no solutions) to _build/student-html"
	@echo "make check-student  open the student HTML edition's pages in headless Chromium (after make student)"
	@echo "make bench       run the speed benchmark against scikit-learn"

$(STAMP): requirements.txt pyproject.toml bookkit/pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e . -e bookkit
	touch $(STAMP)

book: $(STAMP)
	$(BIN)/python tools/build_book.py

# The student HTML edition is built and searched for solutions by
# tests/test_student_html.py (in test-lib); `make check-student` also opens
# its pages in Chromium (45 s more, so not part of `make test`).
test: test-lib test-notebooks book check-html

test-lib: $(STAMP)
	$(BIN)/python -m pytest -q -p no:cacheprovider tests auklib bookkit/aukbook

test-notebooks: $(STAMP)
	$(BIN)/python -m pytest -q -p no:cacheprovider --nbval --nbval-sanitize-with tests/nbval_sanitize.cfg \
		--nbval-current-env -o testpaths= $(NOTEBOOKS)

check-html: $(STAMP)
	$(BIN)/python tools/check_html.py _build/html

check-student: $(STAMP)
	$(BIN)/python tools/check_html.py _build/student-html

notebooks: $(STAMP)
	$(BIN)/python tools/run_notebooks.py $(NOTEBOOKS)

student: $(STAMP)
	$(BIN)/python tools/make_student.py student --html _build/student-html

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_auk.py
	$(BIN)/python benchmarks/bench_uncertainty.py
	$(BIN)/python benchmarks/bench_hmeasure.py

clean:
	rm -rf _build student
