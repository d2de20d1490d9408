package dev.schemabrain.console;

import java.util.List;

/** A bar chart as inline SVG: no script, readable as its title and the table printed beside it. */
final class SvgChart {

    /** One bar: its label and value. */
    record Bar(String label, double value) {
    }

    private static final int HEIGHT = 120;
    private static final int BAR = 28;
    private static final int GAP = 6;

    private SvgChart() {
    }

    /** Empty text for no bars or a negative value (a signed chart is for later; the table says it all). */
    static String bars(String title, List<Bar> bars) {
        if (bars.isEmpty() || bars.stream().anyMatch(b -> b.value() < 0 || Double.isNaN(b.value()))) {
            return "";
        }
        double max = bars.stream().mapToDouble(Bar::value).max().orElse(0);
        StringBuilder svg = open(title, bars.size());
        for (int i = 0; i < bars.size(); i++) {
            Bar b = bars.get(i);
            int h = max <= 0 ? 0 : (int) Math.round(b.value() / max * HEIGHT);
            svg.append("<rect x=\"").append(i * (BAR + GAP)).append("\" y=\"").append(HEIGHT - h + 2).append("\" width=\"")
                    .append(BAR).append("\" height=\"").append(h).append("\" fill=\"#3b6ea5\"><title>")
                    .append(Html.esc(b.label())).append(": ").append(Html.esc(number(b.value()))).append("</title></rect>");
        }
        return svg.append("</svg>").toString();
    }

    /** One bar of a whole and the part of it drawn over its foot: a day's calls and its refusals. */
    record Split(String label, long whole, long part) {
    }

    /** Each bar's whole in blue with its part in red over its foot; empty text for no bars. */
    static String split(String title, List<Split> bars) {
        if (bars.isEmpty()) {
            return "";
        }
        long max = bars.stream().mapToLong(Split::whole).max().orElse(0);
        StringBuilder svg = open(title, bars.size());
        for (int i = 0; i < bars.size(); i++) {
            Split b = bars.get(i);
            int h = max <= 0 ? 0 : (int) Math.round((double) b.whole() / max * HEIGHT);
            int p = max <= 0 ? 0 : (int) Math.round((double) b.part() / max * HEIGHT);
            svg.append("<rect x=\"").append(i * (BAR + GAP)).append("\" y=\"").append(HEIGHT - h + 2).append("\" width=\"")
                    .append(BAR).append("\" height=\"").append(h).append("\" fill=\"#3b6ea5\"><title>")
                    .append(Html.esc(b.label())).append(": ").append(b.whole()).append("</title></rect>");
            svg.append("<rect x=\"").append(i * (BAR + GAP)).append("\" y=\"").append(HEIGHT - p + 2).append("\" width=\"")
                    .append(BAR).append("\" height=\"").append(p).append("\" fill=\"#b03030\"><title>")
                    .append(Html.esc(b.label())).append(": ").append(b.part()).append(" refused</title></rect>");
        }
        return svg.append("</svg>").toString();
    }

    /** The chart's opening, sized for {@code count} bars, titled for a screen reader. */
    private static StringBuilder open(String title, int count) {
        int width = count * (BAR + GAP);
        return new StringBuilder("<svg role=\"img\" aria-label=\"" + Html.esc(title) + "\" width=\"" + width
                + "\" height=\"" + (HEIGHT + 4) + "\" viewBox=\"0 0 " + width + " " + (HEIGHT + 4) + "\"><title>"
                + Html.esc(title) + "</title>");
    }

    private static String number(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.valueOf((long) v) : String.valueOf(v);
    }
}
