package io.dra4j.cel.internal;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newGlobalOverload;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;
import static io.dra4j.cel.internal.KubeTypes.IP;

import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.util.List;

/** Upstream's {@code kubernetes.net.ip} library (ip.go). */
public final class IpLibrary extends LibrarySupport {

    public IpLibrary() {
        super(
                "kubernetes.net.ip",
                List.of(
                        Function.of(
                                newFunctionDeclaration("ip", newGlobalOverload("string_to_ip", IP, SimpleType.STRING)),
                                CelFunctionBinding.from("string_to_ip", String.class, IpLibrary::toIp)),
                        Function.of(
                                newFunctionDeclaration("family", newMemberOverload("ip_family", SimpleType.INT, IP)),
                                CelFunctionBinding.from("ip_family", IpAddress.class, ip -> ip.is4() ? 4L : 6L)),
                        Function.of(
                                newFunctionDeclaration(
                                        "ip.isCanonical",
                                        newGlobalOverload("ip_is_canonical", SimpleType.BOOL, SimpleType.STRING)),
                                CelFunctionBinding.from(
                                        "ip_is_canonical",
                                        String.class,
                                        s -> toIp(s).toString().equals(s))),
                        Function.of(
                                newFunctionDeclaration(
                                        "isUnspecified", newMemberOverload("ip_is_unspecified", SimpleType.BOOL, IP)),
                                CelFunctionBinding.from(
                                        "ip_is_unspecified", IpAddress.class, IpAddress::isUnspecified)),
                        Function.of(
                                newFunctionDeclaration(
                                        "isLoopback", newMemberOverload("ip_is_loopback", SimpleType.BOOL, IP)),
                                CelFunctionBinding.from("ip_is_loopback", IpAddress.class, IpAddress::isLoopback)),
                        Function.of(
                                newFunctionDeclaration(
                                        "isLinkLocalMulticast",
                                        newMemberOverload("ip_is_link_local_multicast", SimpleType.BOOL, IP)),
                                CelFunctionBinding.from(
                                        "ip_is_link_local_multicast",
                                        IpAddress.class,
                                        IpAddress::isLinkLocalMulticast)),
                        Function.of(
                                newFunctionDeclaration(
                                        "isLinkLocalUnicast",
                                        newMemberOverload("ip_is_link_local_unicast", SimpleType.BOOL, IP)),
                                CelFunctionBinding.from(
                                        "ip_is_link_local_unicast", IpAddress.class, IpAddress::isLinkLocalUnicast)),
                        Function.of(
                                newFunctionDeclaration(
                                        "isGlobalUnicast",
                                        newMemberOverload("ip_is_global_unicast", SimpleType.BOOL, IP)),
                                CelFunctionBinding.from(
                                        "ip_is_global_unicast", IpAddress.class, IpAddress::isGlobalUnicast)),
                        Function.of(
                                newFunctionDeclaration(
                                        "isIP", newGlobalOverload("is_ip", SimpleType.BOOL, SimpleType.STRING)),
                                CelFunctionBinding.from("is_ip", String.class, IpLibrary::isIp)),
                        Function.of(
                                newFunctionDeclaration(
                                        "string", newGlobalOverload("ip_to_string", SimpleType.STRING, IP)),
                                CelFunctionBinding.from("ip_to_string", IpAddress.class, IpAddress::toString))));
    }

    /** Parses as upstream's parseIPAddr: netip syntax, but no zones and no IPv4-mapped IPv6. */
    static IpAddress parseIpAddr(String raw) {
        IpAddress addr;
        try {
            addr = IpAddress.parse(raw);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("IP Address " + GoQuote.quote(raw)
                    + " parse error during conversion from string: " + e.getMessage());
        }
        if (!addr.zone().isEmpty()) {
            throw new IllegalArgumentException("IP address " + GoQuote.quote(raw) + " with zone value is not allowed");
        }
        if (addr.is4In6()) {
            throw new IllegalArgumentException("IPv4-mapped IPv6 address " + GoQuote.quote(raw) + " is not allowed");
        }
        return addr;
    }

    static IpAddress toIp(String s) throws CelEvaluationException {
        try {
            return parseIpAddr(s);
        } catch (IllegalArgumentException e) {
            throw error(e.getMessage());
        }
    }

    private static boolean isIp(String s) {
        try {
            parseIpAddr(s);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
