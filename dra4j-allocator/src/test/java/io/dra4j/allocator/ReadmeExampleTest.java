package io.dra4j.allocator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's library section is what a user copies: its Maven coordinates are this module's, and its Java block
 * compiles for Java 17 against this module's classpath and prints what the README says it prints.
 */
class ReadmeExampleTest {
    private static final Path README = Path.of("..", "README.md");

    @Test
    void mavenCoordinatesAreThisModule() throws IOException {
        String xml = block(librarySection(), "xml");
        assertThat(tag(xml, "groupId")).isEqualTo("io.dra4j");
        assertThat(tag(xml, "artifactId")).isEqualTo("dra4j-allocator");
        assertThat(tag(xml, "version")).isEqualTo(System.getProperty("dra4j.version"));
    }

    @Test
    void javaExampleCompilesForJava17AndPrintsWhatTheReadmeSays(@TempDir Path dir) throws Exception {
        String section = librarySection();
        String source = block(section, "java");
        Matcher name = Pattern.compile("public class (\\w+)").matcher(source);
        assertThat(name.find()).as("the example declares a public class").isTrue();
        Path file = dir.resolve(name.group(1) + ".java");
        Files.writeString(file, source);

        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files =
                compiler.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8)) {
            List<String> options = List.of(
                    "--release", "17", "-Xlint:all", "-Werror", "-d", dir.toString(), "-classpath", testClassPath());
            boolean compiled = compiler.getTask(null, files, diagnostics, options, null, files.getJavaFileObjects(file))
                    .call();
            assertThat(diagnostics.getDiagnostics()).as("compiler diagnostics").isEmpty();
            assertThat(compiled).isTrue();
        }

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        try (URLClassLoader loader =
                new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
            Method main = loader.loadClass(name.group(1)).getMethod("main", String[].class);
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            main.invoke(null, (Object) new String[0]);
        } finally {
            System.setOut(stdout);
        }
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(printed(section));
    }

    private static String librarySection() throws IOException {
        String readme = Files.readString(README);
        int start = readme.indexOf("\n## The library\n");
        assertThat(start).as("README has a section 'The library'").isNotNegative();
        int end = readme.indexOf("\n## ", start + 1);
        return readme.substring(start, end < 0 ? readme.length() : end);
    }

    /** The first fenced block of {@code language} in the text. */
    private static String block(String text, String language) {
        Matcher m = Pattern.compile("\n```" + language + "\n(.*?)\n```\n", Pattern.DOTALL)
                .matcher(text);
        assertThat(m.find()).as("a ```" + language + " block").isTrue();
        return m.group(1) + "\n";
    }

    /** The indented block after "It prints:", without its indentation. */
    private static String printed(String text) {
        Matcher m = Pattern.compile("\nIt prints:\n\n((?: {4}.*\n)+)").matcher(text);
        assertThat(m.find()).as("an indented block after 'It prints:'").isTrue();
        return m.group(1)
                .lines()
                .map(l -> l.substring(4) + System.lineSeparator())
                .collect(Collectors.joining());
    }

    private static String tag(String xml, String tag) {
        Matcher m = Pattern.compile("<" + tag + ">([^<]*)</" + tag + ">").matcher(xml);
        assertThat(m.find()).as("<" + tag + ">").isTrue();
        return m.group(1);
    }

    /** Surefire runs tests from a manifest-only jar and names the real classpath in this property. */
    private static String testClassPath() {
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }
}
