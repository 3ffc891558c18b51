package io.dra4j.migrate;

import java.util.ArrayList;
import java.util.List;

/** A unified diff of two texts by lines (longest common subsequence), with three lines of context, as diff -u. */
public final class UnifiedDiff {
    private static final int CONTEXT = 3;

    private UnifiedDiff() {}

    /** The diff from {@code before} to {@code after}; empty when they are equal. */
    public static String of(String name, String before, String after) {
        if (before.equals(after)) {
            return "";
        }
        List<String> a = lines(before);
        List<String> b = lines(after);
        int[][] lcs = new int[a.size() + 1][b.size() + 1];
        for (int i = a.size() - 1; i >= 0; i--) {
            for (int j = b.size() - 1; j >= 0; j--) {
                lcs[i][j] = a.get(i).equals(b.get(j)) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
            }
        }
        // The edit script: ' ' kept, '-' only in before, '+' only in after, with each line's numbers.
        List<char[]> ops = new ArrayList<>();
        List<int[]> at = new ArrayList<>();
        int i = 0;
        int j = 0;
        while (i < a.size() || j < b.size()) {
            if (i < a.size() && j < b.size() && a.get(i).equals(b.get(j))) {
                ops.add(new char[] {' '});
                at.add(new int[] {i++, j++});
            } else if (i < a.size() && (j == b.size() || lcs[i + 1][j] >= lcs[i][j + 1])) {
                ops.add(new char[] {'-'});
                at.add(new int[] {i++, j});
            } else {
                ops.add(new char[] {'+'});
                at.add(new int[] {i, j++});
            }
        }
        StringBuilder sb = new StringBuilder("--- " + name + "\n+++ " + name + "\n");
        int k = 0;
        while (k < ops.size()) {
            if (ops.get(k)[0] == ' ') {
                k++;
                continue;
            }
            int start = Math.max(0, k - CONTEXT);
            int lastChange = k;
            for (int x = k; x < ops.size(); x++) {
                if (ops.get(x)[0] != ' ') {
                    lastChange = x;
                } else if (x - lastChange > 2 * CONTEXT) {
                    break;
                }
            }
            int end = Math.min(ops.size(), lastChange + CONTEXT + 1);
            int aStart = at.get(start)[0];
            int bStart = at.get(start)[1];
            int aLen = 0;
            int bLen = 0;
            StringBuilder hunk = new StringBuilder();
            for (int x = start; x < end; x++) {
                char op = ops.get(x)[0];
                String line = op == '+' ? b.get(at.get(x)[1]) : a.get(at.get(x)[0]);
                hunk.append(op).append(line).append('\n');
                aLen += op != '+' ? 1 : 0;
                bLen += op != '-' ? 1 : 0;
            }
            sb.append("@@ -")
                    .append(aLen == 0 ? aStart : aStart + 1)
                    .append(',')
                    .append(aLen)
                    .append(" +")
                    .append(bLen == 0 ? bStart : bStart + 1)
                    .append(',')
                    .append(bLen)
                    .append(" @@\n")
                    .append(hunk);
            k = end;
        }
        return sb.toString();
    }

    private static List<String> lines(String text) {
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
            lines.remove(lines.size() - 1);
        }
        return lines;
    }
}
