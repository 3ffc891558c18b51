package io.dra4j.drivers.nvidia;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A stand-in for nvidia-smi on a fixture's GPUs that keeps MIG state: it answers the recorded {@code -q -x},
 * {@code -L}, {@code mig -lgip} and {@code mig -lgipp} outputs of the fixture with the GPU instances it holds
 * filled in, creates and destroys GPU and compute instances as {@code mig -cgi/-dci/-dgi} ask (refusing a placement
 * whose memory slices are taken, and a GPU instance that still has a compute instance, as the driver does), and
 * records every command. Output wording follows the MIG User Guide's examples; the driver reads only the listings.
 */
final class SimulatedNvidiaSmi implements NvidiaSmi {
    private record Instance(
            int gpu, GpuInfo.MigProfile profile, int id, int start, boolean computeInstance, String uuid) {}

    private static final Pattern GPU_BLOCK = Pattern.compile("(?s)<mig_devices>.*?</mig_devices>");
    private final String xml;
    private final String listing;
    private final String lgip;
    private final String lgipp;
    private final List<GpuInfo> gpus;
    private final List<Instance> instances = new ArrayList<>();
    private final Map<Integer, Boolean> migMode = new LinkedHashMap<>();
    private final List<String> commands = new CopyOnWriteArrayList<>();

    SimulatedNvidiaSmi(String fixture) throws Exception {
        this.xml = Files.readString(MigFixtures.file(fixture, "xml"));
        this.listing = Files.readString(MigFixtures.file(fixture, "L.txt"));
        this.lgip = Files.readString(MigFixtures.file(fixture, "lgip.txt"));
        this.lgipp = Files.readString(MigFixtures.file(fixture, "lgipp.txt"));
        this.gpus = MigFixtures.gpus(fixture);
        gpus.forEach(g -> migMode.put(g.index(), g.migEnabled()));
    }

    /** Every command run so far, arguments joined by spaces. */
    List<String> commands() {
        return List.copyOf(commands);
    }

    void clearCommands() {
        commands.clear();
    }

    /** {@code gpu:profileId:start} of every GPU instance, with {@code +ci} when it has its compute instance. */
    synchronized List<String> state() {
        return instances.stream()
                .map(i -> i.gpu() + ":" + i.profile().id() + ":" + i.start() + (i.computeInstance() ? "+ci" : ""))
                .toList();
    }

    boolean migEnabled(int gpu) {
        return migMode.get(gpu);
    }

    @Override
    public synchronized Output run(List<String> args) {
        commands.add(String.join(" ", args));
        List<String> a = new ArrayList<>(args);
        if (a.equals(List.of("-q", "-x"))) {
            return ok(xml());
        }
        if (a.equals(List.of("-L"))) {
            return ok(listing());
        }
        if (a.size() == 4 && a.get(0).equals("-i") && a.get(2).equals("-mig")) {
            int gpu = Integer.parseInt(a.get(1));
            migMode.put(gpu, a.get(3).equals("1"));
            return ok((a.get(3).equals("1") ? "Enabled" : "Disabled") + " MIG Mode for GPU " + gpu + "\nAll done.\n");
        }
        if (a.isEmpty() || !a.get(0).equals("mig")) {
            return new Output(2, "Invalid combination of input arguments.");
        }
        Integer gpu = a.indexOf("-i") < 0 ? null : Integer.valueOf(a.get(a.indexOf("-i") + 1));
        if (a.contains("-lgip")) {
            return ok(lgip);
        }
        if (a.contains("-lgipp")) {
            return ok(lgipp);
        }
        if (a.contains("-lgi")) {
            return lgi(gpu);
        }
        if (a.contains("-cgi")) {
            String[] tuple = a.get(a.indexOf("-cgi") + 1).split(":");
            return create(gpu, Integer.parseInt(tuple[0]), Integer.parseInt(tuple[1]), a.contains("-C"));
        }
        if (a.contains("-dci")) {
            return destroyComputeInstance(gpu, Integer.parseInt(a.get(a.indexOf("-gi") + 1)));
        }
        if (a.contains("-dgi")) {
            return destroyGpuInstance(gpu, Integer.parseInt(a.get(a.indexOf("-gi") + 1)));
        }
        return new Output(2, "Invalid combination of input arguments.");
    }

    private static Output ok(String text) {
        return new Output(0, text);
    }

    private Output create(int gpu, int profileId, int start, boolean computeInstance) {
        GpuInfo g = gpus.get(gpu);
        GpuInfo.MigProfile p = g.migProfiles().stream()
                .filter(x -> x.id() == profileId)
                .findFirst()
                .orElse(null);
        if (!migMode.get(gpu) || p == null || !p.placementStarts().contains(start)) {
            return new Output(
                    2,
                    "Unable to create a GPU instance on GPU " + gpu + " using profile " + profileId
                            + ": Invalid Argument");
        }
        for (Instance i : instances) {
            if (i.gpu() == gpu
                    && i.start() < start + p.placementSize()
                    && start < i.start() + i.profile().placementSize()) {
                return new Output(
                        2,
                        "Unable to create a GPU instance on GPU " + gpu + " using profile " + profileId
                                + ": Insufficient Resources");
            }
        }
        int id = 1;
        while (true) {
            int candidate = id;
            if (instances.stream().noneMatch(i -> i.gpu() == gpu && i.id() == candidate)) {
                break;
            }
            id++;
        }
        boolean ci = computeInstance;
        instances.add(new Instance(gpu, p, id, start, ci, uuid(gpu, id)));
        String out = "Successfully created GPU instance ID " + id + " on GPU " + gpu + " using profile MIG " + p.name()
                + " (ID " + profileId + ")\n";
        if (ci) {
            out += "Successfully created compute instance ID 0 on GPU " + gpu + " GPU instance ID " + id
                    + " using profile MIG " + p.name() + " (ID " + (p.computeSlices() - 1) + ")\n";
        }
        return ok(out);
    }

    /** A fresh UUID per creation, as a re-created MIG device gets a new one. */
    private String uuid(int gpu, int gi) {
        return "MIG-" + UUID.nameUUIDFromBytes((gpu + "/" + gi + "/" + commands.size()).getBytes());
    }

    private Output destroyComputeInstance(int gpu, int gi) {
        for (int k = 0; k < instances.size(); k++) {
            Instance i = instances.get(k);
            if (i.gpu() == gpu && i.id() == gi && i.computeInstance()) {
                instances.set(k, new Instance(i.gpu(), i.profile(), i.id(), i.start(), false, i.uuid()));
                return ok("Successfully destroyed compute instance ID 0 from GPU " + gpu + " GPU instance ID " + gi
                        + "\n");
            }
        }
        return new Output(6, "No compute instances found: Not Found\n");
    }

    private Output destroyGpuInstance(int gpu, int gi) {
        for (Instance i : instances) {
            if (i.gpu() == gpu && i.id() == gi) {
                if (i.computeInstance()) {
                    return new Output(
                            19,
                            "Unable to destroy GPU instance ID " + gi + " from GPU " + gpu
                                    + ": In use by another client\n");
                }
                instances.remove(i);
                return ok("Successfully destroyed GPU instance ID " + gi + " from GPU " + gpu + "\n");
            }
        }
        return new Output(6, "Unable to destroy GPU instance ID " + gi + " from GPU " + gpu + ": Not Found\n");
    }

    private Output lgi(Integer gpu) {
        List<Instance> shown =
                instances.stream().filter(i -> gpu == null || i.gpu() == gpu).toList();
        if (shown.isEmpty()) {
            return new Output(6, "No GPU instances found: Not Found\n");
        }
        StringBuilder b = new StringBuilder("+-------------------------------------------------------+\n"
                + "| GPU instances:                                        |\n"
                + "| GPU   Name             Profile  Instance   Placement  |\n"
                + "|                          ID       ID       Start:Size |\n"
                + "|=======================================================|\n");
        for (Instance i : shown) {
            b.append(String.format(
                    "|  %2d  MIG %-14s %3d      %3d         %d:%d     |%n",
                    i.gpu(),
                    i.profile().name(),
                    i.profile().id(),
                    i.id(),
                    i.start(),
                    i.profile().placementSize()));
            b.append("+-------------------------------------------------------+\n");
        }
        return ok(b.toString());
    }

    /** The MIG devices (instances with a compute instance) of a GPU, in GPU instance order. */
    private List<Instance> devices(int gpu) {
        return instances.stream()
                .filter(i -> i.gpu() == gpu && i.computeInstance())
                .sorted((x, y) -> Integer.compare(x.id(), y.id()))
                .toList();
    }

    private String xml() {
        Matcher m = GPU_BLOCK.matcher(xml);
        StringBuilder out = new StringBuilder();
        int gpu = 0;
        while (m.find()) {
            StringBuilder d = new StringBuilder("<mig_devices>\n");
            int index = 0;
            for (Instance i : devices(gpu)) {
                GpuInfo.MigProfile p = i.profile();
                d.append("\t\t\t<mig_device>\n\t\t\t\t<index>")
                        .append(index++)
                        .append("</index>\n")
                        .append("\t\t\t\t<gpu_instance_id>")
                        .append(i.id())
                        .append("</gpu_instance_id>\n")
                        .append("\t\t\t\t<compute_instance_id>0</compute_instance_id>\n")
                        .append("\t\t\t\t<device_attributes>\n\t\t\t\t\t<shared>\n")
                        .append("\t\t\t\t\t\t<multiprocessor_count>")
                        .append(p.multiprocessors())
                        .append("</multiprocessor_count>\n")
                        .append("\t\t\t\t\t\t<copy_engine_count>")
                        .append(p.copyEngines())
                        .append("</copy_engine_count>\n")
                        .append("\t\t\t\t\t\t<encoder_count>")
                        .append(p.encoders())
                        .append("</encoder_count>\n")
                        .append("\t\t\t\t\t\t<decoder_count>")
                        .append(p.decoders())
                        .append("</decoder_count>\n")
                        .append("\t\t\t\t\t\t<ofa_count>")
                        .append(p.ofaEngines())
                        .append("</ofa_count>\n")
                        .append("\t\t\t\t\t\t<jpg_count>")
                        .append(p.jpegEngines())
                        .append("</jpg_count>\n")
                        .append("\t\t\t\t\t</shared>\n\t\t\t\t</device_attributes>\n")
                        .append("\t\t\t\t<fb_memory_usage>\n\t\t\t\t\t<total>")
                        .append(p.memoryBytes() >> 20)
                        .append(" MiB</total>\n\t\t\t\t</fb_memory_usage>\n\t\t\t</mig_device>\n");
            }
            m.appendReplacement(
                    out, Matcher.quoteReplacement(d.append("\t\t</mig_devices>").toString()));
            gpu++;
        }
        m.appendTail(out);
        String text = out.toString();
        for (Map.Entry<Integer, Boolean> e : migMode.entrySet()) {
            text = replaceMode(text, e.getKey(), e.getValue());
        }
        return text;
    }

    private static String replaceMode(String text, int gpu, boolean enabled) {
        int at = -1;
        for (int i = 0; i <= gpu; i++) {
            at = text.indexOf("<current_mig>", at + 1);
        }
        int end = text.indexOf("</current_mig>", at);
        return text.substring(0, at) + "<current_mig>" + (enabled ? "Enabled" : "Disabled") + text.substring(end);
    }

    private String listing() {
        StringBuilder out = new StringBuilder();
        for (String line : listing.split("\n")) {
            out.append(line).append('\n');
            Matcher g = Pattern.compile("GPU (\\d+):").matcher(line);
            if (g.lookingAt()) {
                int index = 0;
                for (Instance i : devices(Integer.parseInt(g.group(1)))) {
                    out.append(String.format(
                            "  MIG %-12s Device %2d: (UUID: %s)%n", i.profile().name(), index++, i.uuid()));
                }
            }
        }
        return out.toString();
    }
}
