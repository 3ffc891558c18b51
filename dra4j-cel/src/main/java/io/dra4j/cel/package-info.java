/**
 * The Kubernetes CEL libraries of the DRA device-selector environment for cel-java, and the Kubernetes value types
 * they work on.
 *
 * <p>{@link io.dra4j.cel.KubernetesLibraries#all()} gives the libraries of the Kubernetes 1.37 base environment
 * that cel-java lacks: quantity, semver, lists (with {@code includes}), regex, URLs, IP, CIDR, named formats and
 * cel-go's string extension version 2 including {@code format}. {@link io.dra4j.cel.KubeQuantity} and
 * {@link io.dra4j.cel.Semver} are the runtime values of {@code kubernetes.Quantity} and {@code kubernetes.Semver}.
 * Behaviour, overload ids and error texts follow k8s.io/apiserver v0.37.2 and cel-go v0.29.2; the tests compare
 * against outcomes recorded from those Go libraries.
 *
 * <p>Known differences from upstream:
 * <ul>
 *   <li>Go's {@code Quantity.Cmp} converts its receiver to the arbitrary-precision form in place, which changes
 *       later {@code isInteger()}, {@code asInteger()} and {@code asApproximateFloat()} results on that same value
 *       within one evaluation; {@link io.dra4j.cel.KubeQuantity} is immutable.</li>
 *   <li>Quantities whose value would need more than 100000 integer digits are refused with "unable to parse
 *       numeric part of quantity" (upstream would not finish); {@code string.format} precisions above 100000
 *       are refused.</li>
 *   <li>Regular expressions use re2j; a constant invalid pattern fails at evaluation (upstream: when the program
 *       is built), with the same "Illegal regex: ..." text.</li>
 *   <li>URL components that percent-decode to invalid UTF-8 come back with U+FFFD (Go keeps the raw bytes).</li>
 *   <li>{@code kubernetes.Quantity}, {@code kubernetes.Semver}, {@code kubernetes.URL} and
 *       {@code kubernetes.NamedFormat} are declared as opaque types (upstream: object types); the names match.</li>
 *   <li>The authorizer, authorizer-selector and JSON patch libraries are not provided: device selectors have no
 *       authorizer and upstream's base environment does not include JSON patch.</li>
 * </ul>
 */
package io.dra4j.cel;
