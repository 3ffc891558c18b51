package io.dra4j.drivers.nvidia;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * Reads what {@code nvidia-smi -q -x} (GPUs, memory, PCI, MIG devices and their engines), {@code nvidia-smi -L}
 * (MIG UUIDs), {@code nvidia-smi mig -lgi} (the GPU instances that exist, with profile and placement),
 * {@code mig -lgip} (the GPU instance profiles a GPU offers) and {@code mig -lgipp} (their possible placements)
 * print. nvidia-smi does not report the CUDA compute capability in its XML, so it is taken from the architecture
 * (and, for Ampere, the product), as the CUDA documentation lists them.
 */
public final class NvidiaSmiParser {
    private static final Pattern MIG_LINE =
            Pattern.compile("\\s+MIG\\s+(\\S+)\\s+Device\\s+(\\d+):\\s+\\(UUID:\\s+(MIG-[^)]+)\\)");
    private static final Pattern GPU_LINE = Pattern.compile("GPU\\s+(\\d+):.*\\(UUID:\\s+(GPU-[^)]+)\\)");
    private static final Pattern LGI_ROW =
            Pattern.compile("\\|\\s+(\\d+)\\s+MIG\\s+(\\S+)\\s+(\\d+)\\s+(\\d+)\\s+(\\d+):(\\d+)\\s+\\|");
    private static final Pattern LGIP_ROW = Pattern.compile("\\|\\s+(\\d+)\\s+MIG\\s+(\\S+)\\s+(\\d+)\\s+(\\d+)/(\\d+)"
            + "\\s+(\\d+(?:\\.\\d+)?)\\s+(\\S+)\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+\\|");
    private static final Pattern LGIP_ENGINES = Pattern.compile("\\|\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+\\|");
    private static final Pattern LGIPP_ROW =
            Pattern.compile("GPU\\s+(\\d+)\\s+Profile ID\\s+(\\d+)\\s+Placements?\\s*:\\s*\\{([0-9,]*)}:(\\d+)");

    /** A failure to read nvidia-smi output, naming the source and what was wrong. */
    public static final class DiscoveryException extends IOException {
        private static final long serialVersionUID = 1L;

        public DiscoveryException(String message) {
            super(message);
        }
    }

    /** A GPU instance as {@code nvidia-smi mig -lgi} lists it: GPU index, profile, instance ID and placement. */
    record GpuInstance(int gpu, String profile, int profileId, int instanceId, int start, int size) {}

    /**
     * The GPUs of {@code xml}; {@code listing} ({@code -L}) and {@code lgi} ({@code mig -lgi}) may be empty when no
     * GPU has MIG enabled.
     */
    public List<GpuInfo> parse(String source, String xml, String listing, String lgi) throws DiscoveryException {
        return parse(source, xml, listing, lgi, "", "");
    }

    /**
     * As {@link #parse(String, String, String, String)}, also reading the GPU instance profiles of MIG-enabled GPUs
     * from {@code lgip} ({@code mig -lgip}) and their placements from {@code lgipp} ({@code mig -lgipp}); both may
     * be empty, and then no GPU has profiles.
     */
    public List<GpuInfo> parse(String source, String xml, String listing, String lgi, String lgip, String lgipp)
            throws DiscoveryException {
        try {
            return parseGpus(source, xml, listing, lgi, profiles(source, lgip, lgipp));
        } catch (IllegalStateException | NullPointerException e) {
            throw new DiscoveryException(
                    e.getMessage() == null ? source + ": incomplete nvidia-smi output" : e.getMessage());
        }
    }

    private List<GpuInfo> parseGpus(
            String source, String xml, String listing, String lgi, Map<Integer, List<GpuInfo.MigProfile>> profiles)
            throws DiscoveryException {
        Document doc = document(source, xml);
        Element root = doc.getDocumentElement();
        if (!"nvidia_smi_log".equals(root.getTagName())) {
            throw new DiscoveryException(
                    source + ": root element is <" + root.getTagName() + ">, not <nvidia_smi_log>");
        }
        String driver = semver(text(root, "driver_version"), source + ": driver_version");
        String cuda = semver(text(root, "cuda_version"), source + ": cuda_version");
        Map<Integer, List<String>> migUuids = migUuids(listing);
        List<GpuInstance> rows = gpuInstances(lgi);
        List<GpuInfo> out = new ArrayList<>();
        int index = 0;
        for (Element gpu : children(root, "gpu")) {
            String where = source + ": gpu " + gpu.getAttribute("id");
            String product = text(gpu, "product_name");
            String arch = text(gpu, "product_architecture");
            int minor = integer(text(gpu, "minor_number"), where + ": minor_number");
            String uuid = text(gpu, "uuid");
            long memory = mib(text(child(gpu, "fb_memory_usage"), "total"), where + ": fb_memory_usage/total");
            String addressing = text(gpu, "addressing_mode");
            boolean mig = "Enabled".equals(text(child(gpu, "mig_mode"), "current_mig"));
            List<GpuInfo.MigInfo> migs = new ArrayList<>();
            if (mig) {
                int gpuIndex = index;
                for (Element m : children(child(gpu, "mig_devices"), "mig_device")) {
                    String mw = where + ": mig_device " + text(m, "index");
                    int migIndex = integer(text(m, "index"), mw + ": index");
                    int gi = integer(text(m, "gpu_instance_id"), mw + ": gpu_instance_id");
                    GpuInstance row = rows.stream()
                            .filter(r -> r.gpu() == gpuIndex && r.instanceId() == gi)
                            .findFirst()
                            .orElseThrow(() -> new IllegalStateException(
                                    mw + ": GPU instance " + gi + " is not in the nvidia-smi mig -lgi output"));
                    List<String> uuids = migUuids.getOrDefault(gpuIndex, List.of());
                    Element shared = child(child(m, "device_attributes"), "shared");
                    migs.add(new GpuInfo.MigInfo(
                            migIndex,
                            gi,
                            integer(text(m, "compute_instance_id"), mw),
                            row.profile(),
                            row.profileId(),
                            row.start(),
                            row.size(),
                            migIndex < uuids.size() ? uuids.get(migIndex) : null,
                            integer(text(shared, "multiprocessor_count"), mw),
                            integer(text(shared, "copy_engine_count"), mw),
                            integer(text(shared, "decoder_count"), mw),
                            integer(text(shared, "encoder_count"), mw),
                            integer(text(shared, "jpg_count"), mw),
                            integer(text(shared, "ofa_count"), mw),
                            mib(text(child(m, "fb_memory_usage"), "total"), mw + ": fb_memory_usage/total")));
                }
            }
            out.add(new GpuInfo(
                    index,
                    minor,
                    uuid,
                    product,
                    text(gpu, "product_brand"),
                    arch,
                    computeCapability(arch, product),
                    driver,
                    cuda,
                    pciBusId(text(child(gpu, "pci"), "pci_bus_id")),
                    memory,
                    addressing == null || addressing.equals("N/A") ? null : addressing,
                    mig,
                    migs,
                    mig ? profiles.getOrDefault(index, List.of()) : List.of()));
            index++;
        }
        return out;
    }

    private static Document document(String source, String xml) throws DiscoveryException {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setExpandEntityReferences(false);
            DocumentBuilder b = f.newDocumentBuilder();
            b.setErrorHandler(null);
            return b.parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
        } catch (SAXException e) {
            throw new DiscoveryException(source + ": not nvidia-smi XML: " + e.getMessage());
        } catch (ParserConfigurationException | IOException e) {
            throw new DiscoveryException(source + ": " + e.getMessage());
        }
    }

    private static Map<Integer, List<String>> migUuids(String listing) {
        Map<Integer, List<String>> out = new HashMap<>();
        int gpu = -1;
        for (String line : listing.split("\n")) {
            Matcher g = GPU_LINE.matcher(line);
            if (g.lookingAt()) {
                gpu = Integer.parseInt(g.group(1));
                continue;
            }
            Matcher m = MIG_LINE.matcher(line);
            if (m.lookingAt() && gpu >= 0) {
                List<String> l = out.computeIfAbsent(gpu, k -> new ArrayList<>());
                int idx = Integer.parseInt(m.group(2));
                while (l.size() <= idx) {
                    l.add(null);
                }
                l.set(idx, m.group(3));
            }
        }
        return out;
    }

    /** The rows of {@code nvidia-smi mig -lgi}; none for its "No GPU instances found". */
    static List<GpuInstance> gpuInstances(String lgi) {
        List<GpuInstance> rows = new ArrayList<>();
        for (String line : lgi.split("\n")) {
            Matcher m = LGI_ROW.matcher(line);
            if (m.find()) {
                rows.add(new GpuInstance(
                        Integer.parseInt(m.group(1)),
                        m.group(2),
                        Integer.parseInt(m.group(3)),
                        Integer.parseInt(m.group(4)),
                        Integer.parseInt(m.group(5)),
                        Integer.parseInt(m.group(6))));
            }
        }
        return rows;
    }

    /**
     * The profiles of each GPU index: {@code -lgip} rows (two lines each: ID, instances, memory in GiB and SMs,
     * decoders and encoders; then copy engines, JPEG and OFA engines) joined with the {@code -lgipp} placements of
     * the same GPU and profile ID.
     */
    static Map<Integer, List<GpuInfo.MigProfile>> profiles(String source, String lgip, String lgipp)
            throws DiscoveryException {
        record Placements(List<Integer> starts, int size) {}
        Map<String, Placements> placements = new HashMap<>();
        for (String line : lgipp.split("\n")) {
            if (line.isBlank() || line.startsWith("No MIG-enabled devices found")) {
                continue;
            }
            Matcher m = LGIPP_ROW.matcher(line);
            if (!m.find()) {
                throw new DiscoveryException(
                        source + ": nvidia-smi mig -lgipp line \"" + line.strip() + "\" is not a profile's placements");
            }
            String key = m.group(1) + "/" + m.group(2);
            List<Integer> s = new ArrayList<>();
            for (String start : m.group(3).split(",")) {
                if (!start.isEmpty()) {
                    s.add(Integer.parseInt(start));
                }
            }
            placements.put(key, new Placements(s, Integer.parseInt(m.group(4))));
        }
        Map<Integer, List<GpuInfo.MigProfile>> out = new HashMap<>();
        String[] lines = lgip.split("\n");
        for (int i = 0; i < lines.length; i++) {
            Matcher m = LGIP_ROW.matcher(lines[i]);
            if (!m.find()) {
                if (lines[i].matches("\\|\\s+\\d+\\s+MIG\\s.*")) {
                    throw new DiscoveryException(source + ": nvidia-smi mig -lgip row \"" + lines[i].strip()
                            + "\" is not a GPU instance profile");
                }
                continue;
            }
            Matcher engines = i + 1 < lines.length ? LGIP_ENGINES.matcher(lines[i + 1]) : null;
            if (engines == null || !engines.find()) {
                throw new DiscoveryException(source + ": nvidia-smi mig -lgip row of profile " + m.group(2)
                        + " has no second line with copy engines, JPEG and OFA engines");
            }
            i++;
            int gpu = Integer.parseInt(m.group(1));
            String key = gpu + "/" + m.group(3);
            if (!placements.containsKey(key)) {
                throw new DiscoveryException(source + ": profile " + m.group(2) + " (ID " + m.group(3) + ") of GPU "
                        + gpu + " has no placements in the nvidia-smi mig -lgipp output");
            }
            long mib = Math.round(Double.parseDouble(m.group(6)) * 1024);
            Placements p = placements.get(key);
            out.computeIfAbsent(gpu, k -> new ArrayList<>())
                    .add(new GpuInfo.MigProfile(
                            Integer.parseInt(m.group(3)),
                            m.group(2),
                            Integer.parseInt(m.group(5)),
                            mib * 1024 * 1024,
                            Long.parseLong(m.group(8)),
                            Long.parseLong(engines.group(1)),
                            Long.parseLong(m.group(9)),
                            Long.parseLong(m.group(10)),
                            Long.parseLong(engines.group(2)),
                            Long.parseLong(engines.group(3)),
                            p.starts(),
                            p.size()));
        }
        return out;
    }

    /** {@code 00000000:18:00.0} as the extended BDF {@code 0000:18:00.0}. */
    static String pciBusId(String id) {
        if (id == null) {
            return null;
        }
        int colon = id.indexOf(':');
        String domain = id.substring(0, colon);
        return (domain.length() > 4 ? domain.substring(domain.length() - 4) : domain).toLowerCase(Locale.ROOT)
                + id.substring(colon).toLowerCase(Locale.ROOT);
    }

    /** {@code 570.158.01} as the semantic version {@code 570.158.1}; {@code 12.8} as {@code 12.8.0}. */
    static String semver(String v, String where) throws DiscoveryException {
        if (v == null || !v.matches("\\d+(\\.\\d+){0,2}")) {
            throw new DiscoveryException(where + ": \"" + v + "\" is not a version");
        }
        String[] parts = v.split("\\.");
        long[] n = new long[3];
        for (int i = 0; i < parts.length; i++) {
            n[i] = Long.parseLong(parts[i]);
        }
        return n[0] + "." + n[1] + "." + n[2];
    }

    static String computeCapability(String architecture, String product) {
        if (architecture == null) {
            return null;
        }
        return switch (architecture) {
            case "Volta" -> "7.0.0";
            case "Turing" -> "7.5.0";
            case "Ampere" ->
                product != null && (product.contains("A100") || product.contains("A30")) ? "8.0.0" : "8.6.0";
            case "Ada Lovelace" -> "8.9.0";
            case "Hopper" -> "9.0.0";
            case "Blackwell" ->
                product != null && (product.contains("RTX") || product.contains("GB20")) ? "12.0.0" : "10.0.0";
            default -> null;
        };
    }

    private static long mib(String s, String where) throws DiscoveryException {
        if (s == null || !s.endsWith(" MiB")) {
            throw new DiscoveryException(where + ": \"" + s + "\" is not a size in MiB");
        }
        return Long.parseLong(s.substring(0, s.length() - 4).trim()) * 1024 * 1024;
    }

    private static int integer(String s, String where) {
        try {
            return Integer.parseInt(s.trim());
        } catch (RuntimeException e) {
            throw new IllegalStateException(where + ": \"" + s + "\" is not a number");
        }
    }

    private static List<Element> children(Element parent, String tag) {
        List<Element> out = new ArrayList<>();
        if (parent == null) {
            return out;
        }
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            Node n = nodes.item(i);
            if (n instanceof Element e && e.getTagName().equals(tag)) {
                out.add(e);
            }
        }
        return out;
    }

    private static Element child(Element parent, String tag) {
        List<Element> l = children(parent, tag);
        return l.isEmpty() ? null : l.get(0);
    }

    private static String text(Element parent, String tag) {
        Element e = child(parent, tag);
        return e == null ? null : e.getTextContent().trim();
    }
}
