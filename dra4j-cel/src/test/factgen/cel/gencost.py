lines = []
def c(fn, oid, *args):
    lines.append("\t".join(["COST", fn, oid] + list(args)))
strs = ['""', '"1"', '"1.5Gi"', '"123456789"', '"1234567890"', '"12345678901"', '"' + 'ü'*30 + '"', '"' + 'a'*30 + '"', '"' + 'a'*100 + '"']
for s in strs:
    c("quantity", "string_to_quantity", s)
    c("isQuantity", "is_quantity_string", s)
    c("semver", "string_to_semver", s)
    c("semver", "string_bool_to_semver", s, "true")
    c("isSemver", "is_semver_string", s)
    c("url", "string_to_url", s)
    c("cidr", "string_to_cidr", s)
    c("isIP", "is_ip", s)
    c("isCIDR", "is_cidr", s)
    c("ip", "string_to_ip", s)
    c("ip.isCanonical", "ip_is_canonical", s)
    c("lowerAscii", "string_lower_ascii", s)
    c("upperAscii", "string_upper_ascii", s)
    c("trim", "string_trim", s)
    c("substring", "string_substring_int", s, "0")
    c("replace", "string_replace_string_string", s, '"a"', '"b"')
    c("split", "string_split_string", s, '","')
    c("indexOf", "string_index_of_string", s, '"a"')
    c("lastIndexOf", "string_last_index_of_string", s, '"a"')
    for r in ['""', '"a"', '"[0-9]+"', '"' + 'x'*33 + '"']:
        c("find", "string_find_string", s, r)
        c("findAll", "string_find_all_string", s, r)
        c("findAll", "string_find_all_string_int", s, r, "2")
    for f in ["dns1123Label", "uri", "uuid", "byte", "date", "labelValue", "qualifiedName"]:
        c("validate", "format-validate", "format.%s()" % f, s)
for l in ['[]', '[1, 2, 3]', '["abc", "defghijklmnop"]', '["' + 'a'*25 + '", "' + 'b'*25 + '"]', '[[1, 2], [3]]', '[{"a": "bcdefghijk"}]', '[1.5, 2.5]', '[b"abcdefghijkl"]']:
    for fn, oid in [("isSorted", "list_int_is_sorted_bool"), ("sum", "list_int_sum_int"), ("max", "list_int_max_int"), ("min", "list_int_min_int")]:
        c(fn, oid, l)
    c("indexOf", "list_a_index_of_int", l, "1")
    c("lastIndexOf", "list_a_last_index_of_int", l, "1")
    c("includes", "list_includes_dyn_dyn", l, "1")
for fn, oid, a in [("sign","quantity_sign",'quantity("1")'), ("asInteger","quantity_get_int",'quantity("1")'), ("isInteger","quantity_is_integer",'quantity("1")'), ("asApproximateFloat","quantity_get_float",'quantity("1")'), ("major","semver_major",'semver("1.2.3")'), ("minor","semver_minor",'semver("1.2.3")'), ("patch","semver_patch",'semver("1.2.3")'), ("getScheme","url_get_scheme",'url("https://x")'), ("getHost","url_get_host",'url("https://x")'), ("getHostname","url_get_hostname",'url("https://x")'), ("getPort","url_get_port",'url("https://x")'), ("getEscapedPath","url_get_escaped_path",'url("https://x")'), ("getQuery","url_get_query",'url("https://x")'), ("masked","cidr_masked",'cidr("10.0.0.0/8")'), ("prefixLength","cidr_prefix_length",'cidr("10.0.0.0/8")'), ("ip","cidr_ip",'cidr("10.0.0.0/8")'), ("family","ip_family",'ip("10.0.0.1")'), ("isUnspecified","ip_is_unspecified",'ip("10.0.0.1")'), ("isLoopback","ip_is_loopback",'ip("10.0.0.1")'), ("isLinkLocalMulticast","ip_is_link_local_multicast",'ip("10.0.0.1")'), ("isLinkLocalUnicast","ip_is_link_local_unicast",'ip("10.0.0.1")'), ("isGlobalUnicast","ip_is_global_unicast",'ip("10.0.0.1")'), ("string","ip_to_string",'ip("10.0.0.1")'), ("string","cidr_to_string",'cidr("10.0.0.0/8")'), ("format.named","format-named",'"uuid"')]:
    c(fn, oid, a)
c("format.uuid", "format.uuid")
for fn, oid, a, b in [("isGreaterThan","quantity_is_greater_than",'quantity("1")','quantity("2")'), ("isLessThan","quantity_is_less_than",'quantity("1")','quantity("2")'), ("compareTo","quantity_compare_to",'quantity("1")','quantity("2")'), ("add","quantity_add",'quantity("1")','quantity("2")'), ("add","quantity_add_int",'quantity("1")','2'), ("sub","quantity_sub",'quantity("1")','quantity("2")'), ("sub","quantity_sub_int",'quantity("1")','2'), ("isGreaterThan","semver_is_greater_than",'semver("1.0.0")','semver("2.0.0")'), ("compareTo","semver_compare_to",'semver("1.0.0")','semver("2.0.0")'),
    ("containsIP","cidr_contains_ip_ip",'cidr("10.0.0.0/8")','ip("10.0.0.1")'), ("containsIP","cidr_contains_ip_string",'cidr("10.0.0.0/8")','"10.0.0.1"'), ("containsIP","cidr_contains_ip_string",'cidr("10.0.0.0/8")','"' + '1'*40 + '"'),
    ("containsCIDR","cidr_contains_cidr",'cidr("10.0.0.0/8")','cidr("10.0.0.0/16")'), ("containsCIDR","cidr_contains_cidr_string",'cidr("10.0.0.0/8")','"10.0.0.0/16"'), ("containsCIDR","cidr_contains_cidr_string",'cidr("10.0.0.0/8")','"' + '1'*40 + '"'),
    ("_==_","equals",'quantity("1")','quantity("2")'), ("_==_","equals",'semver("1.0.0")','semver("1.0.0")'), ("_==_","equals",'ip("10.0.0.1")','ip("10.0.0.1")'), ("_==_","equals",'cidr("10.0.0.0/8")','cidr("10.0.0.0/8")'), ("_==_","equals",'url("https://x")','url("https://x")'), ("_==_","equals",'format.uuid()','format.uuid()'), ("_==_","equals",'1','1'), ("_==_","equals",'"a"','"a"')]:
    c(fn, oid, a, b)
open('exprs/costs.txt','w').write('\n'.join(lines)+'\n')
