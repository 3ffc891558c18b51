package io.dra4j.kubelet.dra;

/** A ResourceClaim as the kubelet names it in NodePrepareResources and NodeUnprepareResources. */
public record ClaimRef(String namespace, String name, String uid) {
    @Override
    public String toString() {
        return namespace + "/" + name + " (uid " + uid + ")";
    }
}
