# heldout.jq — a report over a generated catalogue that jq's link orders
# are measured on, not trained on (bench/optimize/programs.sh, trained on
# jq's own test suite).  Each record goes through sixteen filters of
# everyday jq: string and array builtins, JSON in and out, the formats
# (@base64, @html, @uri, @csv), dates, paths and entries, arithmetic.  The
# code one record runs is several times the 32 KiB cache, so where it
# lies decides the misses, not start-up alone.
.[] | {
  id,
  s: (.name | ascii_upcase | ltrimstr("ITEM ") | tonumber),
  t: (.tags | join(",") | split(",") | map(ascii_downcase) | unique | length),
  j: (tojson | fromjson | keys | length),
  e: (to_entries | map(.key) | sort | join("-")),
  b: (.name | @base64 | @base64d),
  h: (.name | @html), u: (.name | @uri), c: ([.id, .price] | @csv),
  d: (.id * 86400 | todate | strptime("%Y-%m-%dT%H:%M:%SZ") | mktime),
  p: ([paths] | length),
  m: (.nested.b | add / length | floor | sqrt),
  x: (.name | explode | reverse | implode),
  i: (.name | indices("1")),
  w: (with_entries(.value |= tostring) | length),
  f: (.tags | map(select(startswith("t"))) | length)
}
