export default function ProfilePage() {
  return <div className="p-6">Profile</div>;
}
