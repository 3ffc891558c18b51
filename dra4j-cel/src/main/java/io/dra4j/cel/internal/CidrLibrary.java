package io.dra4j.cel.internal;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newGlobalOverload;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;
import static io.dra4j.cel.internal.KubeTypes.CIDR;
import static io.dra4j.cel.internal.KubeTypes.IP;

import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.util.List;

/** Upstream's {@code kubernetes.net.cidr} library (cidr.go). */
public final class CidrLibrary extends LibrarySupport {

    private static final String CONVERSION = "network address parse error during conversion from string: ";

    public CidrLibrary() {
        super(
                "kubernetes.net.cidr",
                List.of(
                        Function.of(
                                newFunctionDeclaration(
                                        "cidr", newGlobalOverload("string_to_cidr", CIDR, SimpleType.STRING)),
                                CelFunctionBinding.from("string_to_cidr", String.class, CidrLibrary::toCidr)),
                        Function.of(
                                newFunctionDeclaration(
                                        "containsIP",
                                        newMemberOverload(
                                                "cidr_contains_ip_string", SimpleType.BOOL, CIDR, SimpleType.STRING),
                                        newMemberOverload("cidr_contains_ip_ip", SimpleType.BOOL, CIDR, IP)),
                                CelFunctionBinding.from(
                                        "cidr_contains_ip_string",
                                        IpPrefix.class,
                                        String.class,
                                        CidrLibrary::containsIpString),
                                CelFunctionBinding.from(
                                        "cidr_contains_ip_ip", IpPrefix.class, IpAddress.class, IpPrefix::contains)),
                        Function.of(
                                newFunctionDeclaration(
                                        "containsCIDR",
                                        newMemberOverload(
                                                "cidr_contains_cidr_string", SimpleType.BOOL, CIDR, SimpleType.STRING),
                                        newMemberOverload("cidr_contains_cidr", SimpleType.BOOL, CIDR, CIDR)),
                                CelFunctionBinding.from(
                                        "cidr_contains_cidr_string",
                                        IpPrefix.class,
                                        String.class,
                                        (c, s) -> containsCidr(c, toCidr(s))),
                                CelFunctionBinding.from(
                                        "cidr_contains_cidr",
                                        IpPrefix.class,
                                        IpPrefix.class,
                                        CidrLibrary::containsCidr)),
                        Function.of(
                                newFunctionDeclaration("ip", newMemberOverload("cidr_ip", IP, CIDR)),
                                CelFunctionBinding.from("cidr_ip", IpPrefix.class, IpPrefix::addr)),
                        Function.of(
                                newFunctionDeclaration(
                                        "prefixLength", newMemberOverload("cidr_prefix_length", SimpleType.INT, CIDR)),
                                CelFunctionBinding.from("cidr_prefix_length", IpPrefix.class, c -> (long) c.bits())),
                        Function.of(
                                newFunctionDeclaration("masked", newMemberOverload("cidr_masked", CIDR, CIDR)),
                                CelFunctionBinding.from("cidr_masked", IpPrefix.class, IpPrefix::masked)),
                        Function.of(
                                newFunctionDeclaration(
                                        "isCIDR", newGlobalOverload("is_cidr", SimpleType.BOOL, SimpleType.STRING)),
                                CelFunctionBinding.from("is_cidr", String.class, CidrLibrary::isCidr)),
                        Function.of(
                                newFunctionDeclaration(
                                        "string", newGlobalOverload("cidr_to_string", SimpleType.STRING, CIDR)),
                                CelFunctionBinding.from("cidr_to_string", IpPrefix.class, IpPrefix::toString))));
    }

    /** Upstream's parseCIDR, whose message already carries the conversion prefix once. */
    private static IpPrefix parseCidr(String raw) {
        IpPrefix net;
        try {
            net = IpPrefix.parse(raw);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(CONVERSION + e.getMessage());
        }
        if (net.addr().is4In6()) {
            throw new IllegalArgumentException("IPv4-mapped IPv6 address " + GoQuote.quote(raw) + " is not allowed");
        }
        return net;
    }

    /** Upstream adds the conversion prefix a second time here. */
    private static IpPrefix toCidr(String s) throws CelEvaluationException {
        try {
            return parseCidr(s);
        } catch (IllegalArgumentException e) {
            throw error(CONVERSION + e.getMessage());
        }
    }

    private static boolean isCidr(String s) {
        try {
            parseCidr(s);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * Upstream passes the failed IP conversion on as a value of the wrong type, which surfaces as a
     * "no such overload" error rather than the parse error.
     */
    private static boolean containsIpString(IpPrefix cidr, String s) throws CelEvaluationException {
        IpAddress ip;
        try {
            ip = IpLibrary.parseIpAddr(s);
        } catch (IllegalArgumentException e) {
            throw error("no such overload");
        }
        return cidr.contains(ip);
    }

    private static boolean containsCidr(IpPrefix cidr, IpPrefix other) {
        return cidr.overlaps(other) && cidr.bits() <= other.bits();
    }
}
