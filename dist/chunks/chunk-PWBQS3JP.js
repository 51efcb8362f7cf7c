import{a as n}from"./chunk-EN66KAXS.js";var c="@@refused",r=`
xchg() {
  { { { printf '%s' "$4"; sleep "$1" 3>&- & } | nc -w "$1" "$2" "$3" 2>&1 1>&3 & n=$!
      ( exec >/dev/null 2>&1 3>&-; sleep "$1"; kill "$n" ) & k=$!
      wait "$n"; kill "$k"
    } | grep -q "can.t connect" && echo "${c}"; } 3>&1 2>/dev/null
}
`;function t(e){return e===void 0||e===`${c}
`?{connected:!1,answer:""}:{connected:!0,answer:e}}n(t,"parseExchange");export{r as a,t as b};
