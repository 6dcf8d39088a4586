#!/bin/sh
# Install the Debian packages `make pdf` needs (run as root): latexmk, xelatex
# with the LaTeX packages Sphinx's LaTeX builder uses, the fonts, and
# poppler-utils (pdftotext, pdfimages, pdftoppm for checks/check_pdf.py).
# About 420 MB; not part of `make test` or .ci/run.
set -e
if [ "$(id -u)" != 0 ]; then
    echo "builders/install_tex.sh: run as root (sudo sh builders/install_tex.sh)" >&2
    exit 1
fi
apt-get update
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    latexmk texlive-latex-recommended texlive-latex-extra \
    texlive-fonts-recommended texlive-xetex tex-gyre lmodern \
    fonts-freefont-otf fonts-dejavu-core poppler-utils
