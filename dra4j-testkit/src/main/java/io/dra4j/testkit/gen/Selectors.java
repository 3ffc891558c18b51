package io.dra4j.testkit.gen;

/**
 * CEL selector expressions over the attributes and capacities {@link SliceGenerator} gives devices. Most are guarded
 * so that they are false rather than failing on devices that lack the attribute; a few are not, because a CEL
 * runtime error is an outcome both engines must report alike.
 */
final class Selectors {
    private Selectors() {}

    static String request(Context ctx) {
        Dice dice = ctx.dice;
        String d = "device.attributes[\"" + dice.pick(ctx.drivers) + "\"]";
        String c = "device.capacity[\"" + dice.pick(ctx.drivers) + "\"]";
        boolean guarded = dice.chance(0.95);
        return switch (dice.between(0, 13)) {
            case 0 -> guard(guarded, d, "model") + d + ".model == \"" + dice.pick("a", "b") + "\"";
            case 1 -> guard(guarded, d, "model") + d + ".model != \"" + dice.pick("a", "c") + "\"";
            case 2 -> guard(guarded, d, "index") + d + ".index >= " + dice.between(1, 2);
            case 3 -> guard(guarded, d, "index") + d + ".index % 2 == 0";
            case 4 -> guard(guarded, d, "healthy") + d + ".healthy";
            case 5 ->
                guard(guarded, d, "fw") + d + ".fw.isGreaterThan(semver(\"" + dice.pick("1.0.0", "1.1.0") + "\"))";
            case 6 ->
                guard(guarded, c, "memory") + c + ".memory.compareTo(quantity(\"" + dice.pick("2Gi", "4Gi")
                        + "\")) >= 0";
            case 7 -> "device.driver == \"" + dice.pick(ctx.drivers) + "\"";
            case 8 ->
                ctx.use("DRAListTypeAttributes", 0.9, 0.2)
                        ? guard(guarded, d, "links") + "\"" + dice.pick("x", "y") + "\" in " + d + ".links"
                        : guard(true, d, "model") + d + ".model == \"a\"";
            case 9 ->
                ctx.use("DRAListTypeAttributes", 0.9, 0.2)
                        ? guard(guarded, d, "ports") + d + ".ports.exists(p, p > 1)"
                        : "device.driver != \"driver-c\"";
            case 10 ->
                ctx.use("DRAConsumableCapacity", 0.9, 0.2)
                        ? "device.allowMultipleAllocations == " + dice.chance(0.6)
                        : guard(true, c, "cores") + c + ".cores.compareTo(quantity(\"4\")) >= 0";
            case 11 ->
                guard(guarded, "device.attributes[\"dra.example.com\"]", "family")
                        + "device.attributes[\"dra.example.com\"].family == \"f1\"";
            // Typed values compared with plain strings: a user mistake whose outcome (false, or an error) must match.
            case 12 ->
                switch (dice.between(0, 6)) {
                    case 0 -> guard(true, d, "fw") + d + ".fw == \"" + dice.pick("1.0.0", "2.0.0") + "\"";
                    case 1 -> guard(true, d, "fw") + "\"1.0.0\" == " + d + ".fw";
                    case 2 -> guard(true, d, "fw") + d + ".fw in [\"1.0.0\", \"2.0.0\"]";
                    case 3 -> guard(true, d, "fw") + d + ".fw.isGreaterThan(quantity(\"1\"))";
                    case 4 -> guard(true, d, "fw") + "[" + d + ".fw] == [\"1.0.0\"]";
                    case 5 -> guard(true, d, "fw") + "{" + d + ".fw: 1}.size() == 1";
                    default -> guard(true, c, "memory") + c + ".memory == \"4Gi\"";
                };
            default -> dice.chance(0.5) ? "true" : "device.attributes.size() > 0";
        };
    }

    private static String guard(boolean guarded, String map, String key) {
        return guarded ? "has(" + map + "." + key + ") && " : "";
    }
}
