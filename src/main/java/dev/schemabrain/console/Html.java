package dev.schemabrain.console;

/** HTML text: escaping every value that did not come from this package, and the page around a body. */
final class Html {

    private Html() {
    }

    /** Text safe in element content and in double-quoted attributes. */
    static String esc(Object value) {
        String s = String.valueOf(value);
        StringBuilder out = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    /** A whole page; {@code nav} false for the login page, which must not look like it leads anywhere. */
    static String page(String title, boolean nav, String body) {
        return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                + "<title>" + esc(title) + " · SchemaBrain console</title><style>" + STYLE + "</style></head><body>"
                + "<a class=\"skip\" href=\"#main\">Skip to content</a>"
                + (nav ? "<header><nav aria-label=\"Console\"><ul><li><a href=\"./\">Drafts to review</a></li>"
                + "<li><a href=\"audit\">Audit</a></li><li><a href=\"pii\">PII</a></li><li><a href=\"roles\">Roles</a></li>"
                + "</ul></nav></header>" : "")
                + "<main id=\"main\"><h1>" + esc(title) + "</h1>" + body + "</main></body></html>\n";
    }

    private static final String STYLE = "body{font-family:system-ui,sans-serif;margin:0 auto;max-width:72rem;padding:1rem;"
            + "line-height:1.45;color:#111}nav ul{list-style:none;display:flex;gap:1.5rem;padding:0}"
            + "a{color:#0645ad}.skip{position:absolute;left:-999px}.skip:focus{left:1rem}"
            + "table{border-collapse:collapse;margin:.5rem 0}th,td{border:1px solid #999;padding:.25rem .5rem;text-align:left}"
            + "pre{background:#f4f4f4;padding:.5rem;overflow-x:auto;white-space:pre-wrap}"
            + "section.metric{border-top:2px solid #333;margin-top:2rem}.note{color:#444}"
            + "button{font-size:1rem;padding:.3rem .8rem;margin-right:.5rem}.refused{color:#a00}";
}
