#!/bin/sh
# Regenerates the chart fonts: Noto Sans CJK SC (Regular, Bold) cut down to
# printable ASCII plus the characters in glyphs.txt. Run it after adding a
# character to glyphs.txt (TestFontCoversGlyphs fails until then).
#
# Needs Debian's fonts-noto-cjk (the .ttc collections; SC is font number 2)
# and python3-fonttools (pyftsubset):
#   apt-get install fonts-noto-cjk python3-fonttools
set -eu
cd "$(dirname "$0")"
src=${NOTO_CJK_DIR:-/usr/share/fonts/opentype/noto}
for w in Regular Bold; do
	python3 -m fontTools.subset "$src/NotoSansCJK-$w.ttc" --font-number=2 \
		--text-file=glyphs.txt --unicodes=U+0020-007E \
		--layout-features=kern --no-hinting --desubroutinize \
		--name-IDs='*' --name-legacy \
		--output-file="NotoSansSC-$w-subset.otf"
done
ls -l NotoSansSC-*-subset.otf
