fn main() {
    let tokens = quote::quote! {
        #[doc = " A request.\n\n Second paragraph with `code` and */ inside?"]
        pub struct A { #[doc = " field doc\n more"] pub x: u8 }
        #[doc = " plain one\n two"]
        pub struct B;
    };
    let f = syn::parse2::<syn::File>(tokens).unwrap();
    println!("{}", prettyplease::unparse(&f));
}
