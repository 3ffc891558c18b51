package io.dra4j.sim.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** The cases of upstream's TestImageLocalityPriority (imagelocality/image_locality_test.go, v1.37.2). */
class ImageLocalityTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final long MB = 1024 * 1024;

    /** node403002000: gcr.io/40 (40 MB, three names), gcr.io/300 (300 MB), gcr.io/2000 (2000 MB). */
    private static final Node NODE1 = node(
            "node1",
            "[{\"names\":[\"gcr.io/40:latest\",\"gcr.io/40:v1\",\"gcr.io/40:v1\"],"
                    + "\"sizeBytes\":" + 40 * MB
                    + "},{\"names\":[\"gcr.io/300:latest\",\"gcr.io/300:v1\"],\"sizeBytes\":" + 300 * MB
                    + "},{\"names\":[\"gcr.io/2000:latest\"],\"sizeBytes\":" + 2000 * MB + "}]");
    /** node25010: gcr.io/250 (250 MB), gcr.io/10 (10 MB). */
    private static final Node NODE2 = node(
            "node2",
            "[{\"names\":[\"gcr.io/250:latest\"],\"sizeBytes\":" + 250 * MB
                    + "},{\"names\":[\"gcr.io/10:latest\",\"gcr.io/10:v1\"],\"sizeBytes\":" + 10 * MB + "}]");

    private static Node node(String name, String images) {
        return JSON.readValue(
                "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"" + name
                        + "\"},\"status\":{\"images\":" + images + "}}",
                Node.class);
    }

    private static Pod pod(String spec) {
        return JSON.readValue(
                "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":" + spec + "}",
                Pod.class);
    }

    private static String containers(String... images) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < images.length; i++) {
            b.append(i == 0 ? "" : ",")
                    .append("{\"name\":\"c")
                    .append(i)
                    .append("\",\"image\":\"")
                    .append(images[i])
                    .append("\"}");
        }
        return b.append("]").toString();
    }

    @Test
    void imagesScoreBySizeSpreadAndThresholds() {
        ImageLocality images = new ImageLocality(List.of(NODE1, NODE2));
        // 40M/2 < 23M: the minimum; 100 * (250M/2 - 23M) / (1000M * 2 - 23M) = 5.
        Pod p40250 = pod("{\"containers\":" + containers("gcr.io/40", "gcr.io/250") + "}");
        assertThat(images.score(p40250, "node1")).isZero();
        assertThat(images.score(p40250, "node2")).isEqualTo(5);
        // 100 * ((40M + 300M)/2 - 23M) / (1000M * 2 - 23M) = 7.
        Pod p40300 = pod("{\"containers\":" + containers("gcr.io/40", "gcr.io/300") + "}");
        assertThat(images.score(p40300, "node1")).isEqualTo(7);
        assertThat(images.score(p40300, "node2")).isZero();
        // An init container's image counts as a container's: 100 * (300M/2 - 23M) / (1000M * 2 - 23M) = 6.
        Pod init = pod(
                "{\"initContainers\":" + containers("gcr.io/300") + ",\"containers\":" + containers("gcr.io/30") + "}");
        assertThat(images.score(init, "node1")).isEqualTo(6);
        // A node the cache does not know scores as one without images.
        assertThat(images.score(init, "node3")).isZero();
    }

    @Test
    void aThirdNodeWithoutImagesLowersTheSpread() {
        Node big = node(
                "node1",
                "[{\"names\":[\"gcr.io/4000:latest\"],\"sizeBytes\":" + 4000 * MB + "},"
                        + "{\"names\":[\"gcr.io/30:latest\"],\"sizeBytes\":" + 30 * MB + "}]");
        Pod p = pod("{\"containers\":" + containers("gcr.io/10", "gcr.io/4000") + "}");
        // 4000M * 1/2 is over 1000M * 2: the maximum.
        assertThat(new ImageLocality(List.of(big, NODE2)).score(p, "node1")).isEqualTo(100);
        // 100 * (4000M/3 - 23M) / (1000M * 2 - 23M) = 66.
        assertThat(new ImageLocality(List.of(big, NODE2, node("node3", "[]"))).score(p, "node1"))
                .isEqualTo(66);
    }

    @Test
    void namesWithoutATagMeanLatest() {
        assertThat(ImageLocality.normalized("gcr.io/40")).isEqualTo("gcr.io/40:latest");
        assertThat(ImageLocality.normalized("gcr.io/40:v1")).isEqualTo("gcr.io/40:v1");
        assertThat(ImageLocality.normalized("registry:5000/tools")).isEqualTo("registry:5000/tools:latest");
        assertThat(ImageLocality.normalized("busybox")).isEqualTo("busybox:latest");
    }
}
