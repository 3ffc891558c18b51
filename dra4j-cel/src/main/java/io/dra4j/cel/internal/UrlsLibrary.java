package io.dra4j.cel.internal;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newGlobalOverload;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;
import static io.dra4j.cel.internal.KubeTypes.URL;

import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.util.List;

/** Upstream's {@code kubernetes.urls} library (urls.go). */
public final class UrlsLibrary extends LibrarySupport {

    public UrlsLibrary() {
        super(
                "kubernetes.urls",
                List.of(
                        Function.of(
                                newFunctionDeclaration(
                                        "url", newGlobalOverload("string_to_url", URL, SimpleType.STRING)),
                                CelFunctionBinding.from("string_to_url", String.class, UrlsLibrary::toUrl)),
                        Function.of(
                                newFunctionDeclaration(
                                        "getScheme", newMemberOverload("url_get_scheme", SimpleType.STRING, URL)),
                                CelFunctionBinding.from("url_get_scheme", GoUrl.class, GoUrl::scheme)),
                        Function.of(
                                newFunctionDeclaration(
                                        "getHost", newMemberOverload("url_get_host", SimpleType.STRING, URL)),
                                CelFunctionBinding.from("url_get_host", GoUrl.class, GoUrl::host)),
                        Function.of(
                                newFunctionDeclaration(
                                        "getHostname", newMemberOverload("url_get_hostname", SimpleType.STRING, URL)),
                                CelFunctionBinding.from("url_get_hostname", GoUrl.class, GoUrl::hostname)),
                        Function.of(
                                newFunctionDeclaration(
                                        "getPort", newMemberOverload("url_get_port", SimpleType.STRING, URL)),
                                CelFunctionBinding.from("url_get_port", GoUrl.class, GoUrl::port)),
                        Function.of(
                                newFunctionDeclaration(
                                        "getEscapedPath",
                                        newMemberOverload("url_get_escaped_path", SimpleType.STRING, URL)),
                                CelFunctionBinding.from("url_get_escaped_path", GoUrl.class, GoUrl::escapedPath)),
                        Function.of(
                                newFunctionDeclaration(
                                        "getQuery",
                                        newMemberOverload(
                                                "url_get_query",
                                                MapType.create(SimpleType.STRING, ListType.create(SimpleType.STRING)),
                                                URL)),
                                CelFunctionBinding.from("url_get_query", GoUrl.class, GoUrl::query)),
                        Function.of(
                                newFunctionDeclaration(
                                        "isURL",
                                        newGlobalOverload("is_url_string", SimpleType.BOOL, SimpleType.STRING)),
                                CelFunctionBinding.from("is_url_string", String.class, UrlsLibrary::isUrl))));
    }

    /** Upstream requires an absolute URL or absolute path (ParseRequestURI), then keeps url.Parse's result. */
    private static GoUrl toUrl(String s) throws CelEvaluationException {
        try {
            GoUrl.parseRequestUri(s);
            return GoUrl.parse(s);
        } catch (GoUrl.UrlException e) {
            throw error("URL parse error during conversion from string: " + e.getMessage());
        }
    }

    private static boolean isUrl(String s) {
        try {
            GoUrl.parseRequestUri(s);
            return true;
        } catch (GoUrl.UrlException e) {
            return false;
        }
    }
}
