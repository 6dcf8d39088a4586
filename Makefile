# Two commands: `make book` builds the HTML, `make test` runs every check.
# Both create the virtual environment .venv from requirements.txt on first use.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# axe-core for the accessibility audit of `make check-html`, from npm, pinned
# by package-lock.json (node_modules/ is not committed)
NPM_STAMP := node_modules/.installed
NOTEBOOKS := $(wildcard chapters/*.ipynb)
export PYTHONHASHSEED := 0
# OpenBLAS picks its kernels from the CPU; AVX-512 and AVX2 kernels round
# differently, and the models of chapters 7 and 8 (MLP, SMOTE) feel it.  Pin
# the AVX2 kernels so the stored outputs reproduce on any x86-64 machine with
# AVX2 (on other CPUs, set OPENBLAS_CORETYPE to one it has and expect nbval
# to report those chapters' numbers).
export OPENBLAS_CORETYPE ?= Haswell

# `make bench` times auklib.dask on DASK_BENCH_N rows of Parquet; the book's
# run is `make bench DASK_BENCH_N=1e8 DASK_BENCH_BIG=1e9` (bounds only at 1e9,
# about 10 GiB of disk and a quarter of an hour).
DASK_BENCH_N   ?= 1e7
DASK_BENCH_BIG ?= 0
# Optional: Spark's AUC evaluators beside auklib (benchmarks/bench_spark.py).
# pyspark is not a requirement of the book; give a Python that has it, e.g.
# `make bench SPARK_PYTHON=/path/to/spark-venv/bin/python`; without it (and
# without pyspark in .venv) the script says so and skips.
SPARK_PYTHON ?=

.PHONY: system book check-book check-student-book test test-course test-lib test-notebooks check-html check-editions check-student check-student-install notebooks student bench clean help pdf pdf-instructor pdf-student tex assignments release grade dist

help:
	@echo "make book        build the HTML book into _build/html"
	@echo "make test        unit tests + doctests, strict nbval over every chapter, both HTML editions built (-W) and checked"
	@echo "make test-course grade a class for every chapter (correct, blank and hostile submissions, each"
	@echo "                 in its own sandbox); make test grades chapter 1 only"
	@echo "make notebooks   re-execute the chapter notebooks in place (refresh stored outputs)"
	@echo "make check-html  open the built pages in headless Chromium, offline: console errors, weight, math, plots,"
	@echo "                 search, accessibility (axe-core WCAG 2.1 AA audit, explorers by keyboard, 390 px wide)"
	@echo "make student     write the student edition: notebooks (no solutions, no outputs, plain Markdown)"
	@echo "                 to student/ and the student HTML book (no solutions) to _build/student-html"
	@echo "make check-student  open the student HTML edition's pages in headless Chromium (after make student)"
	@echo "make check-student-install  install the student zip in a fresh venv (from its own files) and run every notebook"
	@echo "make pdf         build and check both PDF editions with Sphinx's LaTeX builder: the whole book"
	@echo "                 (_build/pdf/book.pdf) and the student edition (_build/pdf/book-student.pdf);"
	@echo "                 installs Debian's TeX packages first if latexmk is missing (as root)"
	@echo "make pdf-student build and check the student PDF only (no solutions, rubrics or instructor pages)"
	@echo "make bench       run the speed benchmarks against scikit-learn, and auklib.dask on Parquet"
	@echo "make dist        auklib's sdist and wheel into dist/ (the library alone), checked by twine"
	@echo "make release ASSIGNMENT=ch01   write the nbgrader course (_build/grading) and the"
	@echo "                 students' release of one chapter (_build/grading/release/ch01);"
	@echo "                 ROSTER=FILE gives every student of it numbers of their own (the"
	@echo "                 course key goes to _build/grading/course_keys/ch01.txt)"
	@echo "make grade ASSIGNMENT=ch01 SUBMISSIONS=DIR [ROSTER=FILE]   collect DIR (folders named"
	@echo "                 by student id, or Moodle/Canvas/Blackboard downloads), grade each notebook in a"
	@echo "                 sandbox, write grades.csv, feedback HTML and a report"
	@echo "                 (ROSTER: one id a line, or a CSV with student_id[, name, lms_id, email];"
	@echo "                 the same file for release and grade); STUDENT=s057 regrades that student"
	@echo "                 only, keeping the marks and comments given by hand"

# The packages are installed by uv (pinned below, installed with the venv's
# own pip): it links them from its cache instead of unpacking every wheel
# again, 3 s instead of pip's 16 s for the same pinned versions.  Bytecode is
# written when a module is first imported, so only the modules the book and
# the tests use are compiled; this machine sets PYTHONDONTWRITEBYTECODE=1,
# which would make every process compile its imports from source again, so
# make turns it off for what it runs.  requirements.txt pins the complete
# set, so it is installed as it is (--no-deps): resolving it again would add
# rfc3987-syntax, which jsonschema's "format-nongpl" extra (required by
# jupyter-events) names and which compiles about 35 Earley parsers whenever
# jsonschema is imported -- 2.3 s of CPU in every process that reads a
# notebook (each nbgrader step, each sandboxed run, each test worker); no
# schema read here has an IRI format (tests/test_setup.py checks it stays out).
UV_VERSION := 0.13.9
export PYTHONDONTWRITEBYTECODE :=
$(STAMP): requirements.txt pyproject.toml bookkit/pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet uv==$(UV_VERSION)
	$(BIN)/uv pip install --quiet --python $(BIN)/python --no-deps -r requirements.txt
	$(BIN)/uv pip install --quiet --python $(BIN)/python --no-deps --no-build-isolation -e . -e bookkit
	touch $(STAMP)

# Debian's chromium (the page check) and npm (axe-core): installed as root
# with apt-get, or make stops at once with the command to run (setup/).
system:
	@sh setup/system_packages.sh

$(NPM_STAMP): package.json package-lock.json | system
	npm ci --no-audit --no-fund
	touch $(NPM_STAMP)

book: $(STAMP)
	$(BIN)/python builders/build_book.py

# The PDF editions: not part of `make test` (TeX is a large install and each
# build takes minutes); tests/test_pdf.py checks a PDF that exists, and (in
# `make test`, no TeX needed) writes both editions' LaTeX source and runs the
# source checks of checks/check_pdf.py on it.  Run it before `make book` (or
# `make student`) and the HTML pages link to the instructor's PDF (or the
# student PDF) (builders/pdf_link.py).  `make pdf` builds and checks both
# editions even when the first fails, and fails if either does.
pdf: $(STAMP) tex
	@status=0; \
	$(MAKE) --no-print-directory pdf-instructor || status=1; \
	$(MAKE) --no-print-directory pdf-student || status=1; \
	if [ $$status -ne 0 ]; then echo "make pdf: an edition failed its build or check (above)"; fi; \
	exit $$status

pdf-instructor: $(STAMP) tex
	$(BIN)/python builders/build_pdf.py
	$(BIN)/python checks/check_pdf.py

pdf-student: $(STAMP) tex
	$(BIN)/python builders/build_pdf.py --edition student
	$(BIN)/python checks/check_pdf.py --edition student

tex:
	command -v latexmk >/dev/null 2>&1 || sh builders/install_tex.sh

# Four streams run side by side (make -j4, each target's output printed when
# it ends): the library tests, nbval, the instructor's HTML edition built and
# then checked page by page in Chromium, and the student edition built
# (tests/student_edition.py, into _build/student-html) and then checked.  The
# library tests read the same student edition: $AUKBOOK_TEST_RUN names this
# run, so whichever stream needs the edition first builds it, under a file
# lock, and the other reuses it.  Each stream alone leaves a core idle for long
# stretches (sandboxed notebooks waiting for their time limit, a pytest worker
# with one long test left, Sphinx's serial writing, a browser waiting for a
# page to settle); side by side they keep both cores busy, and nothing waits
# for everything else to end.
test: system $(STAMP) $(NPM_STAMP)
	AUKBOOK_TEST_RUN=make-test-$$(date +%s%N) $(MAKE) --no-print-directory -j4 --output-sync=target \
		test-lib test-notebooks check-book check-student-book

# the instructor's edition built, then every page of it checked in Chromium
check-book: book system $(NPM_STAMP)
	$(BIN)/python checks/check_html.py _build/html

# the student edition (this test run's, see above) checked page by page: the
# same stylesheets as the instructor's edition, so colour contrast and the
# 390 px layout on its first page only
check-student-book: system $(STAMP) $(NPM_STAMP)
	$(BIN)/python tests/student_edition.py --html _build/student-html
	$(BIN)/python checks/check_html.py --styles-checked _build/student-html

# The pytest workers (three for the library tests, whose longest tests mostly
# wait on sandboxed runs, two for nbval) share the two cores, so every process
# computes on one thread: OpenBLAS and OpenMP would start a thread per core in each worker and
# each kernel, and the threads spin while they wait for a core (measured: 20
# CPU-s of the library tests, 15 of nbval).  The stored outputs reproduce on
# one thread too (chapters 7, 8, 10, 11 and 13 set their own limit in their code).
test-lib test-notebooks: export OPENBLAS_NUM_THREADS := 1
test-lib test-notebooks: export OMP_NUM_THREADS := 1

# The grading tests of every chapter (tests/test_grading_a_class.py grades a
# class per chapter: correct, blank and hostile submissions, each notebook in
# a sandbox); make test runs them on chapter 1 only.  As root, the
# sandbox's bubblewrap is installed on first use (course/grading/sandbox.py).
test-course: export OPENBLAS_NUM_THREADS := 1
test-course: export OMP_NUM_THREADS := 1
test-course: $(STAMP)
	@$(BIN)/python course/grading/sandbox.py --check
	AUKBOOK_TEST_COURSE=all $(BIN)/python -m pytest -q -p no:cacheprovider -n 2 --dist worksteal \
		--durations=20 tests/test_grading_a_class.py tests/test_grading_sandbox.py tests/test_grading.py \
		tests/test_grading_sanitize.py

TEST_WORKERS ?= 3
test-lib: $(STAMP) $(NPM_STAMP)
	AUKBOOK_STUDENT_HTML=_build/student-html \
		$(BIN)/python -m pytest -q -p no:cacheprovider -n $(TEST_WORKERS) --dist worksteal --durations=15 tests auklib bookkit/aukbook

test-notebooks: $(STAMP)
	$(BIN)/python -m pytest -q -p no:cacheprovider -n 2 --dist loadfile --nbval --nbval-sanitize-with tests/nbval_sanitize.cfg \
		--nbval-current-env -o testpaths= $(NOTEBOOKS)

# the student edition too when it has been built (make student)
check-html: system $(STAMP) $(NPM_STAMP)
	$(BIN)/python checks/check_html.py _build/html $(wildcard _build/student-html)

check-editions: system $(STAMP) $(NPM_STAMP)
	$(BIN)/python checks/check_html.py _build/html _build/student-html

check-student: system $(STAMP) $(NPM_STAMP)
	$(BIN)/python checks/check_html.py _build/student-html

check-student-install: student
	$(BIN)/python checks/check_student_install.py _build/student-notebooks.zip

notebooks: $(STAMP)
	$(BIN)/python builders/run_notebooks.py $(NOTEBOOKS)

student: $(STAMP)
	$(BIN)/python course/make_student.py student --html _build/student-html

# Grading with nbgrader (chapters/course.md, "Grading"; course/grading/README.md):
# the course lives in COURSE; `make release` writes one chapter's assignment
# from the chapter itself, with the data it reads (course/make_assignments.py),
# and nbgrader's release of it; `make grade` checks (as root: installs) the
# sandbox first, then collects a folder of submissions (plain or as an LMS
# exports them, matched through ROSTER), runs each notebook in its own sandbox
# and marks the answers it recorded outside it, and writes the LMS grade table
# COURSE/grades.csv, the feedback pages COURSE/feedback/<student id>/<assignment>/
# and the report COURSE/reports/<assignment>-report.txt.
COURSE     ?= _build/grading
ASSIGNMENT ?= ch01
# the class roster, one file for release and grade (course/grading/lms.py,
# read_students): one student id a line, or a CSV with a student_id column and,
# to match LMS downloads, name, lms_id, email (kept as COURSE/roster.csv)
ROSTER     ?=
# a submission already autograded is skipped (so marks given by hand stay);
# AUTOGRADE_FLAGS=--force grades every submission afresh; STUDENT=s057 (or
# s057,s058) regrades those students only, hand marks and comments kept
AUTOGRADE_FLAGS ?=
STUDENT    ?=
# nbgrader runs the `alembic` command of the venv when it creates a gradebook
NBGRADER    = cd $(COURSE) && PATH="$(abspath $(BIN)):$$PATH" nbgrader

assignments: $(STAMP)
	$(BIN)/python course/make_assignments.py $(COURSE) --chapters $(ASSIGNMENT) $(if $(ROSTER),--roster $(ROSTER))

release: assignments
	$(NBGRADER) generate_assignment $(ASSIGNMENT) --force

grade: $(STAMP)
	@test -n "$(SUBMISSIONS)" || { echo "usage: make grade ASSIGNMENT=ch01 SUBMISSIONS=DIR [ROSTER=roster.csv]"; exit 2; }
	@$(BIN)/python course/grading/sandbox.py --check
	@test -d $(COURSE)/release/$(ASSIGNMENT) || $(MAKE) --no-print-directory release COURSE=$(COURSE) ASSIGNMENT=$(ASSIGNMENT) $(if $(ROSTER),ROSTER=$(ROSTER))
	$(BIN)/python course/grading/grade.py $(COURSE) $(ASSIGNMENT) $(SUBMISSIONS) \
		$(if $(ROSTER),--roster $(ROSTER)) $(if $(STUDENT),--student $(STUDENT)) $(AUTOGRADE_FLAGS)

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_auk.py
	$(BIN)/python benchmarks/bench_uncertainty.py
	$(BIN)/python benchmarks/bench_hmeasure.py
	$(BIN)/python benchmarks/bench_dask.py --n $(DASK_BENCH_N) --bounds-n $(DASK_BENCH_BIG)
	$(BIN)/python benchmarks/bench_spark.py $(if $(SPARK_PYTHON),--spark-python $(SPARK_PYTHON))

# auklib as a package of its own (auklib/README.md, auklib/CHANGELOG.md): built
# offline with the pinned setuptools, as tests/test_wheel.py builds it in make
# test; twine (pinned here, run by uv from its cache) checks what PyPI would.
TWINE_VERSION := 7.0.0
dist: $(STAMP)
	rm -rf dist build auklib.egg-info
	$(BIN)/python -m build --no-isolation --outdir dist .
	$(BIN)/uv tool run --quiet --from twine==$(TWINE_VERSION) twine check --strict dist/*

clean:
	rm -rf _build student node_modules
