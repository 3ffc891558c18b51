package io.dra4j.cel.internal;

/**
 * Go's {@code sort.Slice} (pattern-defeating quicksort, sort/zsortfunc.go) on a permutation of indices. It is not
 * stable, so the order of equal (or unordered, NaN) keys is part of cel-go's result: {@code sortBy} with equal keys
 * returns the elements in exactly the order Go's algorithm leaves them, which no other sort reproduces.
 */
final class GoSortSlice {

    /** Go's less(i, j) on the positions of the permutation. */
    interface Less {
        boolean less(int a, int b);
    }

    private static final int INCREASING = 1;
    private static final int DECREASING = 2;

    private final int[] order;
    private final Less less;

    private GoSortSlice(int[] order, Less less) {
        this.order = order;
        this.less = less;
    }

    /** The permutation {@code sort.Slice} produces for {@code length} elements ordered by {@code less} on indices. */
    static int[] sort(int length, Less less) {
        int[] order = new int[length];
        for (int i = 0; i < length; i++) {
            order[i] = i;
        }
        GoSortSlice s = new GoSortSlice(order, (a, b) -> less.less(order[a], order[b]));
        s.pdqsort(0, length, bitsLen(length));
        return order;
    }

    private static int bitsLen(long x) {
        return 64 - Long.numberOfLeadingZeros(x);
    }

    private boolean lt(int a, int b) {
        return less.less(a, b);
    }

    private void swap(int a, int b) {
        int t = order[a];
        order[a] = order[b];
        order[b] = t;
    }

    private void insertionSort(int a, int b) {
        for (int i = a + 1; i < b; i++) {
            for (int j = i; j > a && lt(j, j - 1); j--) {
                swap(j, j - 1);
            }
        }
    }

    private void siftDown(int lo, int hi, int first) {
        int root = lo;
        while (true) {
            int child = 2 * root + 1;
            if (child >= hi) {
                return;
            }
            if (child + 1 < hi && lt(first + child, first + child + 1)) {
                child++;
            }
            if (!lt(first + root, first + child)) {
                return;
            }
            swap(first + root, first + child);
            root = child;
        }
    }

    private void heapSort(int a, int b) {
        int first = a;
        int hi = b - a;
        for (int i = (hi - 1) / 2; i >= 0; i--) {
            siftDown(i, hi, first);
        }
        for (int i = hi - 1; i >= 0; i--) {
            swap(first, first + i);
            siftDown(0, i, first);
        }
    }

    private void pdqsort(int a, int b, int limit) {
        boolean wasBalanced = true;
        boolean wasPartitioned = true;
        while (true) {
            int length = b - a;
            if (length <= 12) {
                insertionSort(a, b);
                return;
            }
            if (limit == 0) {
                heapSort(a, b);
                return;
            }
            if (!wasBalanced) {
                breakPatterns(a, b);
                limit--;
            }
            int[] pivotHint = choosePivot(a, b);
            int pivot = pivotHint[0];
            int hint = pivotHint[1];
            if (hint == DECREASING) {
                reverseRange(a, b);
                pivot = (b - 1) - (pivot - a);
                hint = INCREASING;
            }
            if (wasBalanced && wasPartitioned && hint == INCREASING && partialInsertionSort(a, b)) {
                return;
            }
            if (a > 0 && !lt(a - 1, pivot)) {
                a = partitionEqual(a, b, pivot);
                continue;
            }
            int[] partitioned = partition(a, b, pivot);
            int mid = partitioned[0];
            wasPartitioned = partitioned[1] == 1;
            int leftLen = mid - a;
            int rightLen = b - mid;
            int balanceThreshold = length / 8;
            if (leftLen < rightLen) {
                wasBalanced = leftLen >= balanceThreshold;
                pdqsort(a, mid, limit);
                a = mid + 1;
            } else {
                wasBalanced = rightLen >= balanceThreshold;
                pdqsort(mid + 1, b, limit);
                b = mid;
            }
        }
    }

    private int[] partition(int a, int b, int pivot) {
        swap(a, pivot);
        int i = a + 1;
        int j = b - 1;
        while (i <= j && lt(i, a)) {
            i++;
        }
        while (i <= j && !lt(j, a)) {
            j--;
        }
        if (i > j) {
            swap(j, a);
            return new int[] {j, 1};
        }
        swap(i, j);
        i++;
        j--;
        while (true) {
            while (i <= j && lt(i, a)) {
                i++;
            }
            while (i <= j && !lt(j, a)) {
                j--;
            }
            if (i > j) {
                break;
            }
            swap(i, j);
            i++;
            j--;
        }
        swap(j, a);
        return new int[] {j, 0};
    }

    private int partitionEqual(int a, int b, int pivot) {
        swap(a, pivot);
        int i = a + 1;
        int j = b - 1;
        while (true) {
            while (i <= j && !lt(a, i)) {
                i++;
            }
            while (i <= j && lt(a, j)) {
                j--;
            }
            if (i > j) {
                return i;
            }
            swap(i, j);
            i++;
            j--;
        }
    }

    private boolean partialInsertionSort(int a, int b) {
        int i = a + 1;
        for (int step = 0; step < 5; step++) {
            while (i < b && !lt(i, i - 1)) {
                i++;
            }
            if (i == b) {
                return true;
            }
            if (b - a < 50) {
                return false;
            }
            swap(i, i - 1);
            if (i - a >= 2) {
                for (int j = i - 1; j >= 1; j--) {
                    if (!lt(j, j - 1)) {
                        break;
                    }
                    swap(j, j - 1);
                }
            }
            if (b - i >= 2) {
                for (int j = i + 1; j < b; j++) {
                    if (!lt(j, j - 1)) {
                        break;
                    }
                    swap(j, j - 1);
                }
            }
        }
        return false;
    }

    private void breakPatterns(int a, int b) {
        int length = b - a;
        if (length >= 8) {
            long random = length;
            long modulus = 1L << bitsLen(length);
            for (int idx = a + (length / 4) * 2 - 1; idx <= a + (length / 4) * 2 + 1; idx++) {
                random ^= random << 13;
                random ^= random >>> 7;
                random ^= random << 17;
                int other = (int) (random & (modulus - 1));
                if (other >= length) {
                    other -= length;
                }
                swap(idx, a + other);
            }
        }
    }

    /** The pivot and Go's sortedHint (0 unknown, 1 increasing, 2 decreasing). */
    private int[] choosePivot(int a, int b) {
        int l = b - a;
        int[] swaps = {0};
        int i = a + l / 4;
        int j = a + l / 4 * 2;
        int k = a + l / 4 * 3;
        if (l >= 8) {
            if (l >= 50) {
                i = median(i - 1, i, i + 1, swaps);
                j = median(j - 1, j, j + 1, swaps);
                k = median(k - 1, k, k + 1, swaps);
            }
            j = median(i, j, k, swaps);
        }
        return new int[] {j, swaps[0] == 0 ? INCREASING : swaps[0] == 12 ? DECREASING : 0};
    }

    private int median(int a, int b, int c, int[] swaps) {
        if (lt(b, a)) {
            swaps[0]++;
            int t = a;
            a = b;
            b = t;
        }
        if (lt(c, b)) {
            swaps[0]++;
            int t = b;
            b = c;
            c = t;
        }
        if (lt(b, a)) {
            swaps[0]++;
            int t = a;
            a = b;
            b = t;
        }
        return b;
    }

    private void reverseRange(int a, int b) {
        int i = a;
        int j = b - 1;
        while (i < j) {
            swap(i, j);
            i++;
            j--;
        }
    }
}
