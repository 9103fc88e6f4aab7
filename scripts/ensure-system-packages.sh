#!/usr/bin/env bash
# The system tools the tests and the product use: Chromium (Playwright), LibreOffice (DOCX → PDF),
# poppler-utils (pdfsig, pdftotext) and qpdf. Run by `npm test` (pretest) and by .ci/run.
#
# All present → exits 0 at once, without touching apt. Something missing → as root with apt-get: one
# `apt-get update`, then a non-interactive install of exactly the missing Debian packages. Not root (or no
# apt-get) → prints the command to run and exits 1, so a test run never starts half-equipped.
set -euo pipefail

missing=()
need() { # need <Debian package> <command or absolute path>...
  local package=$1
  shift
  for tool in "$@"; do
    if [[ $tool == /* ]]; then [[ -e $tool ]] && continue; else command -v "$tool" >/dev/null 2>&1 && continue; fi
    missing+=("$package")
    return
  done
}
need chromium /usr/bin/chromium
need libreoffice-writer-nogui soffice
need poppler-utils pdfsig pdftotext
need qpdf qpdf
# The sealed-files zip is listed and unpacked by the sealing tests with Info-ZIP, as a recipient would.
need unzip unzip
# The sealing fonts (typed names in Latin, Cyrillic, Arabic and CJK; the certificate).
need fonts-noto-core /usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf
need fonts-noto-cjk /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "Missing system packages: ${missing[*]}"
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "== apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
  echo "== installed ${missing[*]}"
  exit 0
fi

echo "Install them first (Debian/Ubuntu):" >&2
echo "  sudo apt-get install -y ${missing[*]}" >&2
exit 1
