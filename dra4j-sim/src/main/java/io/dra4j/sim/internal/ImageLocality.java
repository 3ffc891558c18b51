package io.dra4j.sim.internal;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerImage;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The ImageLocality score of kube-scheduler 1.37 (pkg/scheduler/framework/plugins/imagelocality, weight 1 in the
 * default profile, no normalisation): a node scores by the sizes of the pod's images (containers, init containers,
 * image volumes) already in its {@code status.images}, each scaled by the share of the cluster's nodes that have it,
 * summed and clamped between 23 MiB and 1000 MiB per image of the pod, mapped onto 0..100. The image states are the
 * scheduler cache's: per image name the size the first node listing it reported (nodes in input order, as the cache
 * adds them) and the number of nodes listing it. Immutable.
 */
final class ImageLocality {
    private static final long MB = 1024 * 1024;
    private static final long MIN_THRESHOLD = 23 * MB;
    private static final long MAX_CONTAINER_THRESHOLD = 1000 * MB;
    private static final long MAX_SCORE = 100;

    private record State(long size, int nodes) {}

    private final Map<String, State> states;
    private final Map<String, Set<String>> imagesOfNode;
    private final int totalNodes;

    ImageLocality(List<Node> nodes) {
        // addNodeImageStates: every name of every image of a node; the first node to list a name sets its size.
        Map<String, Long> size = new HashMap<>();
        Map<String, Set<String>> holders = new HashMap<>();
        Map<String, Set<String>> perNode = new HashMap<>();
        for (Node n : nodes) {
            String name = n.getMetadata().getName();
            Set<String> mine = perNode.computeIfAbsent(name, k -> new HashSet<>());
            List<ContainerImage> images = n.getStatus() == null
                    ? List.of()
                    : Selectors.list(n.getStatus().getImages());
            for (ContainerImage image : images) {
                for (String imageName : Selectors.list(image.getNames())) {
                    size.putIfAbsent(imageName, image.getSizeBytes() == null ? 0 : image.getSizeBytes());
                    holders.computeIfAbsent(imageName, k -> new HashSet<>()).add(name);
                    mine.add(imageName);
                }
            }
        }
        Map<String, State> s = new HashMap<>();
        size.forEach(
                (name, bytes) -> s.put(name, new State(bytes, holders.get(name).size())));
        this.states = Map.copyOf(s);
        Map<String, Set<String>> copy = new HashMap<>();
        perNode.forEach((k, v) -> copy.put(k, Set.copyOf(v)));
        this.imagesOfNode = Map.copyOf(copy);
        this.totalNodes = nodes.size();
    }

    /** The raw score (0..100) of the pod on the node. */
    long score(Pod pod, String node) {
        Set<String> onNode = states.isEmpty() ? Set.of() : imagesOfNode.getOrDefault(node, Set.of());
        if (onNode.isEmpty()) {
            // Every image scales to 0, so the sum is clamped up to the threshold, which maps onto 0.
            return 0;
        }
        long sum = 0;
        int imageCount = 0;
        // sumImageScores: init containers, containers, then image volumes, each counted even when repeated.
        for (List<Container> containers : List.of(
                Selectors.list(pod.getSpec().getInitContainers()),
                Selectors.list(pod.getSpec().getContainers()))) {
            for (Container c : containers) {
                sum += scaled(onNode, normalized(c.getImage()));
                imageCount++;
            }
        }
        for (Volume v : Selectors.list(pod.getSpec().getVolumes())) {
            if (v.getImage() == null) {
                continue;
            }
            sum += scaled(onNode, normalized(v.getImage().getReference()));
            imageCount++;
        }
        // calculatePriority
        long maxThreshold = MAX_CONTAINER_THRESHOLD * imageCount;
        if (sum < MIN_THRESHOLD) {
            sum = MIN_THRESHOLD;
        } else if (sum > maxThreshold) {
            sum = maxThreshold;
        }
        return MAX_SCORE * (sum - MIN_THRESHOLD) / (maxThreshold - MIN_THRESHOLD);
    }

    /** scaledImageScore: the size times the share of nodes with the image, truncated as Go's int64(float64). */
    private long scaled(Set<String> onNode, String image) {
        State s = onNode.contains(image) ? states.get(image) : null;
        return s == null ? 0 : (long) ((double) s.size() * ((double) s.nodes() / (double) totalNodes));
    }

    /** normalizedImageName: a name without a tag (no ':' after the last '/') gets {@code :latest}. */
    static String normalized(String name) {
        String n = name == null ? "" : name;
        return n.lastIndexOf(':') <= n.lastIndexOf('/') ? n + ":latest" : n;
    }
}
