/*
 * The page's template, style and script, embedded at build time from
 * report/html/ by scripts/embed-html.sh (report/html_assets.c is its
 * output, committed).  The SHA-256 of the style and of the script, in
 * base64, are what the page's Content-Security-Policy allows.
 */
#ifndef CALLSCOPE_REPORT_HTML_ASSETS_H
#define CALLSCOPE_REPORT_HTML_ASSETS_H

#include <stddef.h>

extern const char html_asset_template[];
extern const size_t html_asset_template_len;
extern const char html_asset_css[];
extern const size_t html_asset_css_len;
extern const char html_asset_css_sha256[];
extern const char html_asset_js[];
extern const size_t html_asset_js_len;
extern const char html_asset_js_sha256[];

#endif
