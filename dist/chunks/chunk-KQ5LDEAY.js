var e=["lifecycle","containment"];export{e as a};
