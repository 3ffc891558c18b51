package io.dra4j.sim.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code dra4j simulate --report FILE.html}: one self-contained page (no network access needed to open it). The
 * data goes in as one JSON blob: the document {@code --output json} prints for the same run (summary, pods, device
 * usage, comparison, what-if) and the {@link FleetView}; the page's small script (report.js) renders it, with the
 * echarts webjar's minified build inlined for the charts.
 */
public final class HtmlReport {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Pattern SLOT = Pattern.compile("<!--dra4j:(\\w+)-->");
    private static final String ECHARTS = "/META-INF/resources/webjars/echarts/%s/dist/echarts.common.min.js";
    private static final String ECHARTS_VERSION = "/META-INF/maven/org.webjars.npm/echarts/pom.properties";

    private HtmlReport() {}

    /**
     * The page.
     *
     * @param title      what the page is about (the input, a what-if question)
     * @param simulation the {@code --output json} document of the run
     * @param fleet      the final state as nodes × devices
     * @param whatIf     the what-if answer as the text output prints it, empty when none was asked
     */
    public static String render(String title, String simulation, FleetView fleet, List<String> whatIf) {
        ObjectNode data = JSON.createObjectNode();
        data.put("title", title);
        data.set("simulation", JSON.readTree(simulation));
        data.set("fleet", JSON.valueToTree(fleet));
        data.set("whatIfLines", JSON.valueToTree(whatIf));
        // "<" only occurs inside JSON strings, where \u003c means the same: no "</script>" can end the block early.
        String blob = JSON.writeValueAsString(data).replace("<", "\\u003c");
        String echartsVersion = properties(ECHARTS_VERSION).getProperty("version");
        String echarts = resource(ECHARTS.formatted(echartsVersion));
        if (echarts.contains("</script")) {
            throw new IllegalStateException("echarts " + echartsVersion + " contains </script and cannot be inlined");
        }
        Matcher m = SLOT.matcher(resource("/io/dra4j/sim/report/report.html"));
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = switch (m.group(1)) {
                case "title" -> escape(title);
                case "css" -> resource("/io/dra4j/sim/report/report.css");
                case "echarts" -> echarts;
                case "echartsVersion" -> escape(echartsVersion);
                case "data" -> blob;
                case "js" -> resource("/io/dra4j/sim/report/report.js");
                default -> throw new IllegalStateException("report.html: unknown slot " + m.group());
            };
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }

    /**
     * Writes the page atomically: to a temporary file beside {@code file}, then moved over it, so that a reader
     * never sees half a page and a failed write leaves the old file as it was. The page gets the permissions of the
     * file it replaces, or rw-r--r-- (a temporary file starts owner-only).
     */
    public static void write(Path file, String html) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        // The temporary name adds a dot, random digits and ".tmp": from the file's name only as much as leaves room
        // for them within the 255 bytes a name may have.
        String name = file.getFileName().toString();
        Path tmp = Files.createTempFile(dir, "." + name.substring(0, Math.min(name.length(), 32)), ".tmp");
        try {
            Files.writeString(tmp, html, StandardCharsets.UTF_8);
            if (Files.getFileStore(tmp).supportsFileAttributeView(PosixFileAttributeView.class)) {
                Files.setPosixFilePermissions(
                        tmp,
                        Files.exists(file)
                                ? Files.getPosixFilePermissions(file)
                                : PosixFilePermissions.fromString("rw-r--r--"));
            }
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static Properties properties(String name) {
        Properties p = new Properties();
        try (InputStream in = open(name)) {
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }

    private static String resource(String name) {
        try (InputStream in = open(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static InputStream open(String name) {
        InputStream in = HtmlReport.class.getResourceAsStream(name);
        if (in == null) {
            throw new IllegalStateException(name + " is missing from the build");
        }
        return in;
    }
}
