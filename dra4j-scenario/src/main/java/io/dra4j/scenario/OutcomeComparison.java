package io.dra4j.scenario;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Compares an outcome with a scenario's expectation by the rules of docs/scenario-format.md, as the reference script
 * {@code conformance/check.py} implements them: quantities by value, {@code shareID: "*"} for any share,
 * result order only when asserted, node selectors and tolerations order-insensitively, {@code config} absent meaning
 * empty, and an expected error as a substring of the actual message. The actual outcome is compared in its JSON
 * shape ({@link OutcomeView}), so this comparison and the script see the same data.
 */
public final class OutcomeComparison {
    private static final Pattern QUANTITY =
            Pattern.compile("([+-]?[0-9.]+)([eE][+-]?[0-9]+)?(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?");
    private static final Map<String, BigDecimal> SUFFIX = suffixes();

    private OutcomeComparison() {}

    /** Empty when the outcome meets the expectation; otherwise what differs. */
    public static Optional<String> compare(Expectation expected, ScenarioOutcome outcome) {
        return Optional.ofNullable(check(expected, OutcomeView.of(outcome)));
    }

    @SuppressWarnings("unchecked")
    private static String check(Expectation expected, Map<String, Object> actual) {
        Object outcome = actual.get("outcome");
        String error = actual.get("error") == null ? "" : String.valueOf(actual.get("error"));
        if (expected instanceof Expectation.Error e) {
            if (!"error".equals(outcome)) {
                return "expected error containing '" + e.substring() + "', got outcome " + outcome;
            }
            if (!error.contains(e.substring())) {
                return "error message '" + error + "' lacks '" + e.substring() + "'";
            }
            return null;
        }
        if (expected instanceof Expectation.Unschedulable) {
            return "unschedulable".equals(outcome) ? null : "expected unschedulable, got " + outcome + " " + error;
        }
        Expectation.Allocated exp = (Expectation.Allocated) expected;
        if (!"allocated".equals(outcome)) {
            return "expected allocated, got " + outcome + " " + error;
        }
        List<Object> acts = (List<Object>) actual.getOrDefault("allocations", List.of());
        if (exp.allocations().size() != acts.size()) {
            return "expected " + exp.allocations().size() + " claim allocations, got " + acts.size();
        }
        for (int i = 0; i < acts.size(); i++) {
            Map<String, Object> e = exp.allocations().get(i);
            Map<String, Object> a = (Map<String, Object>) acts.get(i);
            String claim = String.valueOf(e.get("claim"));
            if (!claim.equals(String.valueOf(a.get("claim")))) {
                return "allocation #" + i + ": expected claim " + claim + ", got " + a.get("claim");
            }
            String why = compareResults(list(e.get("results")), list(a.get("results")), exp.resultOrderAsserted());
            if (why != null) {
                return "claim " + claim + ": " + why;
            }
            if (e.containsKey("nodeSelector")
                    && !Objects.equals(nodeSelector(e.get("nodeSelector")), nodeSelector(a.get("nodeSelector")))) {
                return "claim " + claim + ": nodeSelector expected " + JsonText.write(e.get("nodeSelector")) + ", got "
                        + JsonText.write(a.get("nodeSelector"));
            }
            if (e.containsKey("config")) {
                if (!config(e.get("config")).equals(config(a.get("config")))) {
                    return "claim " + claim + ": config expected " + JsonText.write(e.get("config")) + ", got "
                            + JsonText.write(a.get("config"));
                }
            } else if (truthy(a.get("config"))) {
                return "claim " + claim + ": expected no config, got " + JsonText.write(a.get("config"));
            }
        }
        return null;
    }

    /** Results in order, or as multisets; shareID compared by presence (and by value unless "*" when ordered). */
    private static String compareResults(List<Object> exp, List<Object> act, boolean ordered) {
        if (exp.size() != act.size()) {
            return "expected " + exp.size() + " results, got " + act.size();
        }
        List<String> en = new ArrayList<>();
        List<String> an = new ArrayList<>();
        List<Object> shareE = new ArrayList<>();
        List<Object> shareA = new ArrayList<>();
        for (int i = 0; i < exp.size(); i++) {
            en.add(normResult(map(exp.get(i))));
            an.add(normResult(map(act.get(i))));
            shareE.add(map(exp.get(i)).get("shareID"));
            shareA.add(map(act.get(i)).get("shareID"));
        }
        if (ordered) {
            for (int i = 0; i < en.size(); i++) {
                if (!en.get(i).equals(an.get(i))) {
                    return "result #" + i + ": expected " + en.get(i) + ", got " + an.get(i);
                }
            }
            for (int i = 0; i < shareE.size(); i++) {
                Object se = shareE.get(i);
                Object sa = shareA.get(i);
                if ((se == null) != (sa == null) || (se != null && !"*".equals(se) && !se.equals(sa))) {
                    return "result #" + i + ": shareID expected " + se + ", got " + sa;
                }
            }
            return null;
        }
        List<String> ek = new ArrayList<>();
        List<String> ak = new ArrayList<>();
        for (int i = 0; i < en.size(); i++) {
            ek.add(en.get(i) + " share=" + (shareE.get(i) != null));
            ak.add(an.get(i) + " share=" + (shareA.get(i) != null));
        }
        ek.sort(null);
        ak.sort(null);
        if (!ek.equals(ak)) {
            return "results differ (as sets): expected " + ek + ", got " + ak;
        }
        return null;
    }

    /** A canonical text for the compared fields of one result. */
    private static String normResult(Map<String, Object> r) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("request", r.get("request"));
        d.put("driver", r.get("driver"));
        d.put("pool", r.get("pool"));
        d.put("device", r.get("device"));
        d.put("adminAccess", truthy(r.get("adminAccess")));
        d.put("tolerations", tolerations(r.get("tolerations")));
        d.put("bindingConditions", truthy(r.get("bindingConditions")) ? r.get("bindingConditions") : List.of());
        d.put(
                "bindingFailureConditions",
                truthy(r.get("bindingFailureConditions")) ? r.get("bindingFailureConditions") : List.of());
        Map<String, Object> caps = new TreeMap<>();
        if (truthy(r.get("consumedCapacity"))) {
            map(r.get("consumedCapacity")).forEach((k, v) -> caps.put(k, quantity(v)));
        }
        d.put("consumedCapacity", caps);
        return JsonText.write(d);
    }

    /** Each toleration as its sorted (key, text) pairs, leaving out empty values except tolerationSeconds. */
    private static List<String> tolerations(Object ts) {
        List<String> out = new ArrayList<>();
        if (!truthy(ts)) {
            return out;
        }
        for (Object t : list(ts)) {
            TreeMap<String, String> pairs = new TreeMap<>();
            map(t).forEach((k, v) -> {
                if (k.equals("tolerationSeconds") || !isEmptyValue(v)) {
                    pairs.put(k, pythonStr(v));
                }
            });
            out.add(JsonText.write(new LinkedHashMap<>(pairs)));
        }
        out.sort(null);
        return out;
    }

    /** Terms as sorted lists of sorted requirements; null for no selector. */
    private static List<String> nodeSelector(Object ns) {
        if (!truthy(ns)) {
            return null;
        }
        List<String> terms = new ArrayList<>();
        Object termList = map(ns).get("nodeSelectorTerms");
        for (Object t : truthy(termList) ? list(termList) : List.of()) {
            List<String> reqs = new ArrayList<>();
            for (String kind : List.of("matchExpressions", "matchFields")) {
                Object rs = map(t).get(kind);
                for (Object r : truthy(rs) ? list(rs) : List.of()) {
                    Map<String, Object> req = map(r);
                    List<String> values = new ArrayList<>();
                    Object vs = req.get("values");
                    for (Object v : truthy(vs) ? list(vs) : List.of()) {
                        values.add(JsonText.write(v));
                    }
                    values.sort(null);
                    List<Object> tuple = new ArrayList<>();
                    tuple.add(kind);
                    tuple.add(req.get("key"));
                    tuple.add(req.get("operator"));
                    tuple.add(values);
                    reqs.add(JsonText.write(tuple));
                }
            }
            reqs.sort(null);
            terms.add(JsonText.write(reqs));
        }
        terms.sort(null);
        return terms;
    }

    /** Each configuration as JSON with sorted keys, the list sorted. */
    private static List<String> config(Object cfgs) {
        List<String> out = new ArrayList<>();
        for (Object c : truthy(cfgs) ? list(cfgs) : List.of()) {
            out.add(JsonText.write(sortKeys(c)));
        }
        out.sort(null);
        return out;
    }

    private static Object sortKeys(Object v) {
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new TreeMap<>();
            m.forEach((k, x) -> out.put(String.valueOf(k), sortKeys(x)));
            return out;
        }
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>();
            l.forEach(x -> out.add(sortKeys(x)));
            return out;
        }
        return v;
    }

    /** A quantity's exact value, or the text itself when it is no quantity; {@code {value: q}} is unwrapped. */
    static String quantity(Object v) {
        if (v instanceof Map<?, ?> m && m.containsKey("value")) {
            v = m.get("value");
        }
        String s = pythonStr(v).strip();
        Matcher matcher = QUANTITY.matcher(s);
        if (!matcher.matches()) {
            return "text:" + s;
        }
        BigDecimal number;
        try {
            number = new BigDecimal(matcher.group(1));
        } catch (NumberFormatException e) {
            return "text:" + s;
        }
        if (matcher.group(2) != null) {
            number = number.scaleByPowerOfTen(Integer.parseInt(matcher.group(2).substring(1)));
        }
        number = number.multiply(SUFFIX.get(matcher.group(3) == null ? "" : matcher.group(3)));
        return "value:"
                + (number.signum() == 0 ? "0" : number.stripTrailingZeros().toPlainString());
    }

    private static Map<String, BigDecimal> suffixes() {
        Map<String, BigDecimal> m = new LinkedHashMap<>();
        String[] binary = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
        for (int i = 0; i < binary.length; i++) {
            m.put(binary[i], new BigDecimal(java.math.BigInteger.TWO.pow(10 * (i + 1))));
        }
        m.put("n", BigDecimal.ONE.scaleByPowerOfTen(-9));
        m.put("u", BigDecimal.ONE.scaleByPowerOfTen(-6));
        m.put("m", BigDecimal.ONE.scaleByPowerOfTen(-3));
        m.put("", BigDecimal.ONE);
        String[] decimal = {"k", "M", "G", "T", "P", "E"};
        for (int i = 0; i < decimal.length; i++) {
            m.put(decimal[i], BigDecimal.ONE.scaleByPowerOfTen(3 * (i + 1)));
        }
        return Map.copyOf(m);
    }

    /** Python's truth value, which the reference script relies on ({@code x or []}, {@code bool(x)}). */
    private static boolean truthy(Object v) {
        if (v == null) {
            return false;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        if (v instanceof Number n) {
            return n.doubleValue() != 0;
        }
        if (v instanceof String s) {
            return !s.isEmpty();
        }
        if (v instanceof Map<?, ?> m) {
            return !m.isEmpty();
        }
        if (v instanceof List<?> l) {
            return !l.isEmpty();
        }
        return true;
    }

    /** Python's {@code v in (None, '', 0)}. */
    private static boolean isEmptyValue(Object v) {
        return v == null
                || "".equals(v)
                || (v instanceof Boolean b && !b)
                || (v instanceof Number n && n.doubleValue() == 0);
    }

    /** Python's {@code str(v)} for the scalars a scenario holds. */
    private static String pythonStr(Object v) {
        if (v == null) {
            return "None";
        }
        if (v instanceof Boolean b) {
            return b ? "True" : "False";
        }
        return String.valueOf(v);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object v) {
        return v instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object v) {
        return v instanceof List<?> l ? (List<Object>) l : List.of();
    }
}
