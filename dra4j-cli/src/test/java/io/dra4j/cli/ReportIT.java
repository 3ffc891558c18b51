package io.dra4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.WebDriverWait;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code simulate --report} opened in a real headless Chromium (Debian's {@code chromium} and {@code chromium-driver},
 * driven by Selenium): the page renders without console errors, and the numbers it shows, read from the DOM, equal
 * the {@code --output json} document of the same run. Skipped without Chromium unless
 * {@code DRA4J_CHROMIUM_REQUIRED=1} (run-tests sets it). With {@code -Ddra4j.report.screenshot=FILE} it writes a
 * screenshot of the bundled example's report there (docs/report.png).
 */
class ReportIT {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static WebDriver browser;

    @BeforeAll
    static void start() {
        boolean present = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
        if (!present && "1".equals(System.getenv("DRA4J_CHROMIUM_REQUIRED"))) {
            throw new IllegalStateException("DRA4J_CHROMIUM_REQUIRED=1 but " + CHROMIUM + " or " + CHROMEDRIVER
                    + " is missing (scripts/ensure-tools installs them with DRA4J_NEED_CHROMIUM=1)");
        }
        Assumptions.assumeTrue(present, "no chromium and chromedriver at /usr/bin");
        System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.toString());
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toString());
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--window-size=1400,1800");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        browser = new ChromeDriver(options);
    }

    @AfterAll
    static void stop() {
        if (browser != null) {
            browser.quit();
        }
    }

    private static JsonNode simulate(Path report, String... more) {
        String[] args = new String[4 + more.length];
        args[0] = "simulate";
        args[1] = "-o";
        args[2] = "json";
        args[3] = "--report=" + report;
        System.arraycopy(more, 0, args, 4, more.length);
        CliRuns.Run run = CliRuns.run(args);
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(report).isRegularFile();
        try {
            assertThat(Files.getPosixFilePermissions(report))
                    .as("a page others may open")
                    .contains(
                            PosixFilePermission.OWNER_READ,
                            PosixFilePermission.GROUP_READ,
                            PosixFilePermission.OTHERS_READ);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return JsonMapper.builder().build().readTree(run.out());
    }

    private static void open(Path report) {
        browser.get(report.toUri().toString());
        new WebDriverWait(browser, Duration.ofSeconds(60))
                .until(d -> "true".equals(d.findElement(By.tagName("body")).getDomAttribute("data-rendered")));
    }

    private static List<String> consoleErrors() {
        return browser.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue())
                .map(LogEntry::getMessage)
                .toList();
    }

    private static long shown(String css) {
        return Long.parseLong(browser.findElement(By.cssSelector(css)).getText().trim());
    }

    @Test
    void theBundledFleetsReportShowsTheNumbersOfItsJson(@TempDir Path dir) throws IOException {
        Path report = dir.resolve("fleet.html");
        JsonNode json = simulate(report);
        open(report);
        assertThat(consoleErrors()).isEmpty();

        JsonNode summary = json.get("summary");
        for (String metric : List.of("nodes", "pods", "placed", "pending", "boundBefore")) {
            assertThat(shown("#summary [data-metric=" + metric + "]"))
                    .as(metric)
                    .isEqualTo(summary.get(metric).asLong());
        }
        JsonNode perClass = json.get("deviceUsage").get("perClass");
        List<WebElement> classRows = browser.findElements(By.cssSelector("tr[data-class]"));
        assertThat(classRows).as("per-class rows").isNotEmpty();
        long sum = 0;
        for (WebElement row : classRows) {
            String deviceClass = row.getDomAttribute("data-class");
            long allocated = Long.parseLong(
                    row.findElement(By.cssSelector("td[data-field=allocated]")).getText());
            JsonNode expected = perClass.get(deviceClass);
            assertThat(allocated).as("class " + deviceClass).isEqualTo(expected == null ? 0 : expected.asLong());
            sum += allocated;
        }
        long jsonSum = 0;
        for (JsonNode n : perClass) {
            jsonSum += n.asLong();
        }
        assertThat(sum).as("every class of the JSON has its row").isEqualTo(jsonSum);

        long pendingRows =
                browser.findElements(By.cssSelector("#pending tr[data-pod]")).size();
        assertThat(pendingRows).isEqualTo(summary.get("pending").asLong());

        String screenshot = System.getProperty("dra4j.report.screenshot");
        if (screenshot != null && !screenshot.isBlank()) {
            Path png = ((org.openqa.selenium.TakesScreenshot) browser)
                    .getScreenshotAs(OutputType.FILE)
                    .toPath();
            Files.copy(png, Path.of(screenshot), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    @Test
    void theComparisonShowsBothSidesOfItsJson(@TempDir Path dir) {
        Path report = dir.resolve("compare.html");
        JsonNode json = simulate(report, "--compare", "device-plugins");
        open(report);
        assertThat(consoleErrors()).isEmpty();
        JsonNode comparison = json.get("comparison");
        for (String side : List.of("dra", "devicePlugins")) {
            for (String metric : List.of("placed", "pending", "strandedDevices", "crossDomainJobs")) {
                assertThat(shown("[data-side=" + side + "][data-metric=" + metric + "]"))
                        .as(side + " " + metric)
                        .isEqualTo(comparison.get(side).get(metric).asLong());
            }
        }
        JsonNode decision = comparison.get("decision");
        assertThat(browser.findElements(By.cssSelector("#decision tr[data-need]")))
                .hasSize(decision.size());
        for (JsonNode answer : decision) {
            WebElement row = browser.findElement(By.cssSelector(
                    "#decision tr[data-need=" + answer.get("need").asString() + "]"));
            assertThat(row.findElement(By.cssSelector("td[data-field=needed]")).getText())
                    .isEqualTo(answer.get("needed").asBoolean() ? "yes" : "no");
            List<String> workloads = new java.util.ArrayList<>();
            answer.get("workloads").forEach(w -> workloads.add(w.asString()));
            assertThat(row.findElement(By.cssSelector("td[data-field=workloads]"))
                            .getText())
                    .isEqualTo(String.join(", ", workloads));
        }
    }

    @Test
    void aGangShowsWhatItMisses(@TempDir Path dir) {
        Path report = dir.resolve("gang.html");
        JsonNode json = simulate(report, "--gang", "batch.kubernetes.io/job-name");
        open(report);
        assertThat(consoleErrors()).isEmpty();
        JsonNode gangs = json.get("gangs");
        assertThat(gangs.size()).as("the bundled fleet's Jobs as gangs").isPositive();
        List<WebElement> rows = browser.findElements(By.cssSelector("#gangs tr[data-gang]"));
        assertThat(rows).hasSize(gangs.size());
        for (int i = 0; i < gangs.size(); i++) {
            JsonNode gang = gangs.get(i);
            WebElement row = rows.get(i);
            assertThat(row.getDomAttribute("data-gang"))
                    .isEqualTo(gang.get("name").asString());
            assertThat(Long.parseLong(row.findElement(By.cssSelector("td[data-field=placed]"))
                            .getText()))
                    .isEqualTo(gang.get("placed").asLong());
            assertThat(Long.parseLong(row.findElement(By.cssSelector("td[data-field=missing]"))
                            .getText()))
                    .isEqualTo(gang.get("missing").asLong());
            assertThat(Long.parseLong(row.findElement(By.cssSelector("td[data-field=members]"))
                            .getText()))
                    .isEqualTo(gang.get("members").size());
        }
    }

    @Test
    void searchFiltersPendingPodsAndNodePoolsAndAPoolOpensOnClick(@TempDir Path dir) {
        Path report = dir.resolve("search.html");
        JsonNode json = simulate(report);
        open(report);
        JsonNode firstPending = null;
        for (JsonNode pod : json.get("pods")) {
            if ("PENDING".equals(pod.get("placement").asString())) {
                firstPending = pod;
                break;
            }
        }
        assertThat(firstPending).as("the bundled fleet has a pending pod").isNotNull();
        String name = firstPending.get("namespace").asString() + "/"
                + firstPending.get("name").asString();
        long matching = 0;
        for (JsonNode pod : json.get("pods")) {
            String other =
                    pod.get("namespace").asString() + "/" + pod.get("name").asString();
            matching += "PENDING".equals(pod.get("placement").asString()) && other.contains(name) ? 1 : 0;
        }

        WebElement pool = browser.findElement(By.cssSelector("details.pool"));
        assertThat(pool.findElements(By.cssSelector(".node")))
                .as("a collapsed pool renders no node")
                .isEmpty();
        pool.findElement(By.tagName("summary")).click();
        new WebDriverWait(browser, Duration.ofSeconds(10))
                .until(d -> !pool.findElements(By.cssSelector(".node")).isEmpty());

        browser.findElement(By.id("search")).sendKeys(name);
        new WebDriverWait(browser, Duration.ofSeconds(10))
                .until(d ->
                        d.findElements(By.cssSelector("#pending tr[data-pod]")).size() == 0
                                || d.findElements(By.cssSelector("#pending tr[data-pod]"))
                                                .size()
                                        < json.get("summary").get("pending").asLong());
        List<WebElement> rows = browser.findElements(By.cssSelector("#pending tr[data-pod]"));
        assertThat(rows).hasSize((int) matching);
        assertThat(rows).extracting(r -> r.getDomAttribute("data-pod")).allMatch(p -> p.contains(name));

        browser.findElement(By.id("search")).sendKeys("no-such-thing-anywhere");
        new WebDriverWait(browser, Duration.ofSeconds(10))
                .until(d ->
                        d.findElements(By.cssSelector("#pending tr[data-pod]")).isEmpty());
        assertThat(browser.findElements(By.cssSelector("details.pool")))
                .allMatch(d -> !d.isDisplayed(), "every node pool hidden when nothing matches");
        assertThat(consoleErrors()).isEmpty();
    }

    @Test
    void fiveThousandNodesRenderWithPoolsCollapsed(@TempDir Path dir) throws IOException {
        Path fleet = dir.resolve("big.yaml");
        StringBuilder yaml = new StringBuilder("""
                apiVersion: resource.k8s.io/v1
                kind: DeviceClass
                metadata:
                  name: gpu
                spec:
                  selectors:
                  - cel:
                      expression: device.driver == "gpu.example.com"
                """);
        String[] pools = {"a100", "h100", "l4"};
        for (int n = 0; n < 5000; n++) {
            String node = "node-" + n;
            yaml.append("---\napiVersion: v1\nkind: Node\nmetadata:\n  name: ")
                    .append(node)
                    .append("\n  labels:\n    node.kubernetes.io/instance-type: ")
                    .append(pools[n % 3])
                    .append("\nstatus:\n  allocatable:\n    cpu: \"8\"\n    memory: 64Gi\n    pods: \"110\"\n")
                    .append("---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata:\n  name: ")
                    .append(node)
                    .append("-gpus\nspec:\n  driver: gpu.example.com\n  nodeName: ")
                    .append(node)
                    .append("\n  pool:\n    name: ")
                    .append(node)
                    .append("\n    generation: 1\n    resourceSliceCount: 1\n  devices:\n");
            for (int d = 0; d < 4; d++) {
                yaml.append("  - name: gpu-").append(d).append('\n');
            }
        }
        for (int p = 0; p < 20; p++) {
            yaml.append("---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata:\n  name: c-")
                    .append(p)
                    .append("\n  namespace: default\nspec:\n  devices:\n    requests:\n    - name: gpu\n")
                    .append("      exactly:\n        deviceClassName: gpu\n        count: ")
                    .append(p == 19 ? 5 : 2)
                    .append("\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p-")
                    .append(p)
                    .append("\n  namespace: default\nspec:\n  containers:\n  - name: c\n    image: x\n")
                    .append("    resources:\n      claims:\n      - name: gpu\n  resourceClaims:\n  - name: gpu\n")
                    .append("    resourceClaimName: c-")
                    .append(p)
                    .append('\n');
        }
        Files.writeString(fleet, yaml);
        Path report = dir.resolve("big.html");
        JsonNode json = simulate(report, fleet.toString());
        assertThat(json.get("summary").get("nodes").asLong()).isEqualTo(5000);
        open(report);
        assertThat(consoleErrors()).isEmpty();
        assertThat(browser.findElements(By.cssSelector("details.pool"))).hasSize(3);
        assertThat(browser.findElements(By.cssSelector(".node")))
                .as("collapsed pools render no node")
                .isEmpty();
        assertThat(shown("#summary [data-metric=placed]")).isEqualTo(19);
        assertThat(shown("#summary [data-metric=pending]")).isEqualTo(1);
        long devices = 0;
        for (WebElement row : browser.findElements(By.cssSelector("tr[data-node-pool]"))) {
            devices += Long.parseLong(
                    row.findElement(By.cssSelector("td[data-field=devices]")).getText());
        }
        assertThat(devices).isEqualTo(20_000);
    }
}
