package io.dra4j.kubelet.probe;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The checks a probe ran, grouped by suite (one per plugin), with a text form and JUnit XML. */
public final class ProbeReport {
    /** One check: its suite (plugin), name, outcome and what was seen. */
    public record Check(String suite, String name, boolean passed, String detail, long millis) {}

    private final List<Check> checks = new ArrayList<>();

    synchronized void add(Check check) {
        checks.add(check);
    }

    public synchronized List<Check> checks() {
        return List.copyOf(checks);
    }

    public boolean passed() {
        return !checks().isEmpty() && checks().stream().allMatch(Check::passed);
    }

    public List<Check> failures() {
        return checks().stream().filter(c -> !c.passed()).toList();
    }

    public void print(PrintWriter out) {
        String suite = null;
        for (Check c : checks()) {
            if (!c.suite().equals(suite)) {
                suite = c.suite();
                out.println(suite);
            }
            out.println("  " + (c.passed() ? "PASS " : "FAIL ") + c.name()
                    + (c.detail().isEmpty() ? "" : ": " + c.detail()));
        }
        long failed = failures().size();
        out.println((checks().size() - failed) + " passed, " + failed + " failed");
    }

    public void writeJUnit(Path file) throws IOException {
        Map<String, List<Check>> suites = new LinkedHashMap<>();
        checks().forEach(c ->
                suites.computeIfAbsent(c.suite(), k -> new ArrayList<>()).add(c));
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        xml.append("<testsuites name=\"dra4j kubelet-probe\" tests=\"")
                .append(checks().size())
                .append("\" failures=\"")
                .append(failures().size())
                .append("\">\n");
        for (Map.Entry<String, List<Check>> s : suites.entrySet()) {
            long failures = s.getValue().stream().filter(c -> !c.passed()).count();
            xml.append("  <testsuite name=\"")
                    .append(escape(s.getKey()))
                    .append("\" tests=\"")
                    .append(s.getValue().size())
                    .append("\" failures=\"")
                    .append(failures)
                    .append("\">\n");
            for (Check c : s.getValue()) {
                xml.append("    <testcase classname=\"")
                        .append(escape(s.getKey()))
                        .append("\" name=\"")
                        .append(escape(c.name()))
                        .append("\" time=\"")
                        .append(c.millis() / 1000.0)
                        .append("\"");
                if (c.passed()) {
                    xml.append("/>\n");
                } else {
                    xml.append(">\n      <failure message=\"")
                            .append(escape(c.detail()))
                            .append("\"/>\n")
                            .append("    </testcase>\n");
                }
            }
            xml.append("  </testsuite>\n");
        }
        xml.append("</testsuites>\n");
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, xml, StandardCharsets.UTF_8);
    }

    private static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                default -> {
                    if (ch < 0x20 && ch != '\n' && ch != '\t') {
                        b.append(' ');
                    } else {
                        b.append(ch);
                    }
                }
            }
        }
        return b.toString();
    }
}
