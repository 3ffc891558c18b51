package io.dra4j.allocator.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * An immutable hash map whose updates share structure with the map they come from (a hash array mapped trie): a
 * put or remove copies one path of at most seven small nodes, so a new version of the cluster state costs what
 * changed, not the size of the cluster. Iteration order is unspecified. Thread-safe (immutable).
 */
final class PersistentMap<K, V> {
    private static final PersistentMap<?, ?> EMPTY = new PersistentMap<>(null, 0);
    private static final int BITS = 5;
    private static final int MASK = (1 << BITS) - 1;

    private final Object root;
    private final int size;

    private PersistentMap(Object root, int size) {
        this.root = root;
        this.size = size;
    }

    @SuppressWarnings("unchecked")
    static <K, V> PersistentMap<K, V> empty() {
        return (PersistentMap<K, V>) EMPTY;
    }

    /** One key and value, stored at the depth where its hash first differs from its neighbours'. */
    private record Leaf(int hash, Object key, Object value) {}

    /** Keys with the same full hash. */
    private record Collision(int hash, Leaf[] leaves) {}

    /** Children for the 5-bit hash chunks whose bits are set, in chunk order. */
    private record Branch(int bitmap, Object[] children) {}

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    @SuppressWarnings("unchecked")
    V get(Object key) {
        int hash = hash(key);
        Object node = root;
        int shift = 0;
        while (node != null) {
            if (node instanceof Branch b) {
                int bit = 1 << ((hash >>> shift) & MASK);
                if ((b.bitmap & bit) == 0) {
                    return null;
                }
                node = b.children[Integer.bitCount(b.bitmap & (bit - 1))];
                shift += BITS;
            } else if (node instanceof Leaf l) {
                return l.hash == hash && Objects.equals(l.key, key) ? (V) l.value : null;
            } else {
                Collision c = (Collision) node;
                if (c.hash != hash) {
                    return null;
                }
                for (Leaf l : c.leaves) {
                    if (Objects.equals(l.key, key)) {
                        return (V) l.value;
                    }
                }
                return null;
            }
        }
        return null;
    }

    boolean containsKey(Object key) {
        return get(key) != null;
    }

    /** This map with the key mapped to the value (null values are not allowed). */
    PersistentMap<K, V> plus(K key, V value) {
        Objects.requireNonNull(value, "value");
        boolean present = containsKey(key);
        Object r = put(root, 0, hash(key), key, value);
        return r == root ? this : new PersistentMap<>(r, present ? size : size + 1);
    }

    /** This map without the key. */
    PersistentMap<K, V> minus(Object key) {
        if (!containsKey(key)) {
            return this;
        }
        return new PersistentMap<>(remove(root, 0, hash(key), key), size - 1);
    }

    @SuppressWarnings("unchecked")
    void forEach(BiConsumer<? super K, ? super V> action) {
        walk(root, (BiConsumer<Object, Object>) action);
    }

    List<V> values() {
        List<V> out = new ArrayList<>(size);
        forEach((k, v) -> out.add(v));
        return out;
    }

    private static void walk(Object node, BiConsumer<Object, Object> action) {
        if (node == null) {
            return;
        }
        if (node instanceof Leaf l) {
            action.accept(l.key, l.value);
        } else if (node instanceof Collision c) {
            for (Leaf l : c.leaves) {
                action.accept(l.key, l.value);
            }
        } else {
            for (Object child : ((Branch) node).children) {
                walk(child, action);
            }
        }
    }

    private static int hash(Object key) {
        int h = Objects.hashCode(key);
        return h ^ (h >>> 16);
    }

    private static Object put(Object node, int shift, int hash, Object key, Object value) {
        if (node == null) {
            return new Leaf(hash, key, value);
        }
        if (node instanceof Leaf l) {
            if (l.hash == hash) {
                if (Objects.equals(l.key, key)) {
                    return l.value == value ? l : new Leaf(hash, key, value);
                }
                return new Collision(hash, new Leaf[] {l, new Leaf(hash, key, value)});
            }
            return merge(shift, l, l.hash, new Leaf(hash, key, value), hash);
        }
        if (node instanceof Collision c) {
            if (c.hash != hash) {
                return merge(shift, c, c.hash, new Leaf(hash, key, value), hash);
            }
            for (int i = 0; i < c.leaves.length; i++) {
                if (Objects.equals(c.leaves[i].key, key)) {
                    Leaf[] copy = c.leaves.clone();
                    copy[i] = new Leaf(hash, key, value);
                    return new Collision(hash, copy);
                }
            }
            Leaf[] copy = java.util.Arrays.copyOf(c.leaves, c.leaves.length + 1);
            copy[c.leaves.length] = new Leaf(hash, key, value);
            return new Collision(hash, copy);
        }
        Branch b = (Branch) node;
        int bit = 1 << ((hash >>> shift) & MASK);
        int idx = Integer.bitCount(b.bitmap & (bit - 1));
        if ((b.bitmap & bit) == 0) {
            Object[] children = new Object[b.children.length + 1];
            System.arraycopy(b.children, 0, children, 0, idx);
            children[idx] = new Leaf(hash, key, value);
            System.arraycopy(b.children, idx, children, idx + 1, b.children.length - idx);
            return new Branch(b.bitmap | bit, children);
        }
        Object child = b.children[idx];
        Object updated = put(child, shift + BITS, hash, key, value);
        if (updated == child) {
            return b;
        }
        Object[] children = b.children.clone();
        children[idx] = updated;
        return new Branch(b.bitmap, children);
    }

    /** A branch holding two nodes with different hashes, nested as deep as their hash chunks agree. */
    private static Object merge(int shift, Object a, int hashA, Object b, int hashB) {
        int ia = (hashA >>> shift) & MASK;
        int ib = (hashB >>> shift) & MASK;
        if (ia == ib) {
            return new Branch(1 << ia, new Object[] {merge(shift + BITS, a, hashA, b, hashB)});
        }
        return new Branch((1 << ia) | (1 << ib), ia < ib ? new Object[] {a, b} : new Object[] {b, a});
    }

    private static Object remove(Object node, int shift, int hash, Object key) {
        if (node instanceof Leaf l) {
            return l.hash == hash && Objects.equals(l.key, key) ? null : l;
        }
        if (node instanceof Collision c) {
            List<Leaf> rest = new ArrayList<>();
            for (Leaf l : c.leaves) {
                if (!Objects.equals(l.key, key)) {
                    rest.add(l);
                }
            }
            return rest.size() == 1 ? rest.get(0) : new Collision(hash, rest.toArray(new Leaf[0]));
        }
        Branch b = (Branch) node;
        int bit = 1 << ((hash >>> shift) & MASK);
        int idx = Integer.bitCount(b.bitmap & (bit - 1));
        Object child = b.children[idx];
        Object updated = remove(child, shift + BITS, hash, key);
        if (updated == null) {
            if (b.children.length == 1) {
                return null;
            }
            if (b.children.length == 2 && !(b.children[1 - idx] instanceof Branch)) {
                return b.children[1 - idx];
            }
            Object[] children = new Object[b.children.length - 1];
            System.arraycopy(b.children, 0, children, 0, idx);
            System.arraycopy(b.children, idx + 1, children, idx, children.length - idx);
            return new Branch(b.bitmap & ~bit, children);
        }
        if (b.children.length == 1 && !(updated instanceof Branch)) {
            return updated;
        }
        Object[] children = b.children.clone();
        children[idx] = updated;
        return new Branch(b.bitmap, children);
    }
}
