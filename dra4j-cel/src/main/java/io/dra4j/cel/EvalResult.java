package io.dra4j.cel;

/** The outcome of evaluating a device selector against one device. */
public sealed interface EvalResult {

    /** The selector evaluated to a boolean. */
    record Matched(boolean value) implements EvalResult {}

    /**
     * The selector could not be evaluated: a compile error, a runtime error, an exceeded cost limit or a non-bool
     * result. The message is upstream's text (without the allocator's "class ...: selector #i" prefix).
     */
    record Failed(String message) implements EvalResult {}
}
