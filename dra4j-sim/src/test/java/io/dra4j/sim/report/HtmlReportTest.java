package io.dra4j.sim.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class HtmlReportTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Pattern DATA =
            Pattern.compile("<script type=\"application/json\" id=\"dra4j-data\">(.*?)</script>", Pattern.DOTALL);
    /** Strings a user can put in names and that HTML, scripts or the template's slots would take as markup. */
    private static final String HOSTILE = "</script><script>alert(\"x&y\")</script><!-- '$1\\ <!--dra4j:js-->";

    private static String simulation() {
        return JSON.writeValueAsString(JSON.createObjectNode()
                .<tools.jackson.databind.node.ObjectNode>set(
                        "summary", JSON.createObjectNode().put("placed", 1).put("pending", 1))
                .set(
                        "pods",
                        JSON.createArrayNode()
                                .add(JSON.createObjectNode()
                                        .put("namespace", "ns")
                                        .put("name", HOSTILE)
                                        .putNull("node")
                                        .put("reason", "0/1 nodes: " + HOSTILE))));
    }

    private static FleetView fleet() {
        FleetView.Cell cell = new FleetView.Cell(
                "gpu-" + HOSTILE,
                "d/p",
                "free",
                "device",
                "",
                List.of(HOSTILE),
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                List.of());
        return new FleetView(
                "pool",
                List.of(new FleetView.NodePool(
                        HOSTILE,
                        1,
                        1,
                        0,
                        0,
                        List.of(new FleetView.NodeRow(
                                "node-" + HOSTILE, false, List.of(), 0, List.of(cell), List.of())))),
                List.of());
    }

    @Test
    void userStringsReachThePageAsDataAndNeverAsMarkup() {
        String title = "snapshot " + HOSTILE;
        String page = HtmlReport.render(title, simulation(), fleet(), List.of("what if " + HOSTILE));

        // Only the template's own three script elements: no name closes one or opens another.
        assertThat(Pattern.compile("</script", Pattern.CASE_INSENSITIVE)
                        .matcher(page)
                        .results()
                        .count())
                .isEqualTo(3);
        assertThat(Pattern.compile("<script", Pattern.CASE_INSENSITIVE)
                        .matcher(page)
                        .results()
                        .count())
                .isEqualTo(3);
        assertThat(page).doesNotContain("alert(\"x&y\")").doesNotContain("<!--dra4j:");
        // The title is text in <title> and the header.
        String escaped = "snapshot &lt;/script&gt;&lt;script&gt;alert(&quot;x&amp;y&quot;)&lt;/script&gt;&lt;!-- '$1\\ "
                + "&lt;!--dra4j:js--&gt;";
        assertThat(page)
                .contains("<title>dra4j simulate: " + escaped + "</title>", "<p class=\"sub\">" + escaped + "</p>");

        // The data block holds no markup and reads back as exactly what went in.
        Matcher m = DATA.matcher(page);
        assertThat(m.find()).isTrue();
        String blob = m.group(1);
        assertThat(blob).doesNotContain("<");
        JsonNode data = JSON.readTree(blob);
        assertThat(data.path("title").asString()).isEqualTo(title);
        assertThat(data.path("simulation")).isEqualTo(JSON.readTree(simulation()));
        assertThat(data.path("fleet")).isEqualTo(JSON.readTree(JSON.writeValueAsString(fleet())));
        assertThat(data.path("whatIfLines").get(0).asString()).isEqualTo("what if " + HOSTILE);
        assertThat(data.path("fleet")
                        .path("pools")
                        .get(0)
                        .path("nodeRows")
                        .get(0)
                        .path("name")
                        .asString())
                .isEqualTo("node-" + HOSTILE);
    }

    @Test
    void thePageIsSelfContained() {
        String page = HtmlReport.render("t", simulation(), fleet(), List.of());
        // No script, stylesheet or image to fetch: everything is inlined.
        assertThat(page)
                .doesNotContainPattern("(?i)<script[^>]*\\ssrc=")
                .doesNotContainPattern("(?i)<link[^>]*stylesheet")
                .doesNotContainPattern("(?i)<img[^>]*\\ssrc=\"?https?:")
                .contains("Apache ECharts", "echarts");
    }

    @Test
    void writeReplacesTheFileWholeKeepingItsPermissionsAndLeavesNothingBeside(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("report.html");
        HtmlReport.write(file, "first");
        assertThat(Files.readString(file)).isEqualTo("first");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-r--r--");

        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        HtmlReport.write(file, "second é");
        assertThat(Files.readString(file, StandardCharsets.UTF_8)).isEqualTo("second é");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).containsExactly(file);
        }
    }

    @Test
    void aFailedWriteLeavesWhatWasThere(@TempDir Path dir) throws IOException {
        // A directory in the way cannot be replaced: the error is reported and no temporary file stays behind.
        Path inTheWay = dir.resolve("report.html");
        Files.createDirectory(inTheWay);
        Files.writeString(inTheWay.resolve("keep"), "kept");
        assertThatThrownBy(() -> HtmlReport.write(inTheWay, "page")).isInstanceOf(IOException.class);
        assertThat(Files.readString(inTheWay.resolve("keep"))).isEqualTo("kept");
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).containsExactly(inTheWay);
        }
        // No directory to write in.
        assertThatThrownBy(() -> HtmlReport.write(dir.resolve("missing/report.html"), "page"))
                .isInstanceOf(IOException.class);
    }

    @Test
    void aNameAsLongAsTheFileSystemAllowsCanBeWritten(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("r".repeat(250) + ".html");
        HtmlReport.write(file, "page");
        assertThat(Files.readString(file)).isEqualTo("page");
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).containsExactly(file);
        }
    }
}
